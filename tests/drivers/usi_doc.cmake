# docs/usi.md shows what koma-usi answers to `usi` with variants/shogi.yaml:
# its block under "## Options" must be that answer, line for line (the
# version in `id name koma X` aside).
#
#   cmake -DDOC=<docs/usi.md> -DWORK=<folder> -P usi_doc.cmake -- <koma-usi> <argument>...
cmake_minimum_required(VERSION 3.20)

include(${CMAKE_CURRENT_LIST_DIR}/command_line.cmake)
set(usage "cmake -DDOC=<docs/usi.md> -DWORK=<folder> -P usi_doc.cmake -- <koma-usi> <argument>...")
koma_command_after_dashes("${usage}")
if(NOT DEFINED DOC OR NOT DEFINED WORK)
  message(FATAL_ERROR "usage: ${usage}")
endif()

file(READ "${DOC}" doc)
if(NOT doc MATCHES "\n## Options \\(`usi` answers them\\)\n+```\n(id name [^`]*usiok\n)```")
  message(FATAL_ERROR "${DOC}: no block from `id name` to `usiok` under '## Options'")
endif()
set(shown "${CMAKE_MATCH_1}")

file(MAKE_DIRECTORY "${WORK}")
file(WRITE "${WORK}/usi.in" "usi\nquit\n")
execute_process(COMMAND ${command} INPUT_FILE "${WORK}/usi.in"
  RESULT_VARIABLE status OUTPUT_VARIABLE answer ERROR_VARIABLE stderr)
if(NOT status STREQUAL "0" OR NOT stderr STREQUAL "")
  message(FATAL_ERROR "koma-usi exits ${status}: ${stderr}")
endif()

string(REGEX REPLACE "^id name koma [^\n]*\n" "id name koma X\n" shown "${shown}")
string(REGEX REPLACE "^id name koma [^\n]*\n" "id name koma X\n" answer "${answer}")
if(NOT shown STREQUAL answer)
  message(FATAL_ERROR "${DOC} shows\n${shown}-- koma-usi answers\n${answer}--")
endif()
