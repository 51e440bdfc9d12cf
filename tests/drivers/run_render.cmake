# Runs koma-render and checks the picture it writes (or that it writes none).
#
#   cmake -DOUT=<file> [-D<setting>=<value>]... -P run_render.cmake -- <program> <argument>...
#
# An argument @OUT@ is replaced by OUT; OUT is deleted before the run.
# Settings:
#   EXPECT_EXIT=N            the exit status (default 0)
#   EXPECT_STDERR=TEXT       standard error must be exactly this one line
#   EXPECT_STDERR_REGEX=RE   standard error must match RE
#                            (without either, standard error must be empty)
#   EXPECT_PIECES=N          pieces drawn on the board (<g class="piece...">)
#   EXPECT_OVERTURNED=N      of those, overturned kings
#   EXPECT_PROMOTED=N        of those, promoted pieces
#   EXPECT_CELLS=N           board cells drawn (<rect class="cell">)
#   EXPECT_LAST_MOVE=N       tinted last-move squares (default 0)
#   EXPECT_CONTAINS=A;B;...  texts the SVG must contain
# With a non-zero exit, OUT must not exist afterwards. With exit 0 the SVG must
# be a standalone SVG 1.1 document with balanced elements, in well-formed UTF-8
# of characters XML 1.0 allows, standard output must be empty, and a second
# run must write a byte-identical file.
cmake_minimum_required(VERSION 3.20)

include(${CMAKE_CURRENT_LIST_DIR}/command_line.cmake)
koma_command_after_dashes("cmake -DOUT=<file> [-D...] -P run_render.cmake -- <program> <argument>...")
if(NOT DEFINED OUT)
  message(FATAL_ERROR "usage: cmake -DOUT=<file> [-D...] -P run_render.cmake -- <program> <argument>...")
endif()
if(NOT DEFINED EXPECT_EXIT)
  set(EXPECT_EXIT 0)
endif()
if(NOT DEFINED EXPECT_LAST_MOVE)
  set(EXPECT_LAST_MOVE 0)
endif()

file(REMOVE "${OUT}" "${OUT}.again")
set(first_command ${command})
list(TRANSFORM first_command REPLACE "^@OUT@$" "${OUT}")
execute_process(COMMAND ${first_command}
  RESULT_VARIABLE status OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)

set(failures "")
if(NOT status STREQUAL EXPECT_EXIT)
  string(APPEND failures "exit status ${status}, expected ${EXPECT_EXIT}\n")
endif()
if(NOT stdout STREQUAL "")
  string(APPEND failures "standard output:\n${stdout}-- expected nothing\n")
endif()
koma_check_stderr()

# Occurrences of a regular expression in the SVG text.
function(count_matches regex out_var)
  string(REGEX MATCHALL "${regex}" found "${svg}")
  list(LENGTH found n)
  set(${out_var} ${n} PARENT_SCOPE)
endfunction()

function(expect_count what regex expected)
  count_matches("${regex}" n)
  if(NOT n EQUAL expected)
    string(APPEND failures "${what}: ${n}, expected ${expected}\n")
    set(failures "${failures}" PARENT_SCOPE)
  endif()
endfunction()

if(NOT status EQUAL 0)
  if(EXISTS "${OUT}")
    string(APPEND failures "${OUT} was written although the run failed\n")
  endif()
elseif(NOT EXISTS "${OUT}")
  string(APPEND failures "${OUT} was not written\n")
else()
  file(READ "${OUT}" svg)
  # A standalone SVG 1.1 document: the XML declaration, the root element with
  # its namespace, size and viewBox, and the closing tag last.
  if(NOT svg MATCHES "^<\\?xml version=\"1.0\" encoding=\"UTF-8\"\\?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"[0-9.]+\" height=\"[0-9.]+\" viewBox=\"0 0 [0-9.]+ [0-9.]+\"")
    string(APPEND failures "the SVG does not start with the XML declaration and an SVG 1.1 root\n")
  endif()
  if(NOT svg MATCHES "</svg>\n$")
    string(APPEND failures "the SVG does not end with </svg>\n")
  endif()
  # Balanced elements: every container opened is closed.
  foreach(tag svg g text tspan title desc)
    count_matches("<${tag}[ >]" opened)
    count_matches("</${tag}>" closed)
    if(NOT opened EQUAL closed)
      string(APPEND failures "<${tag}> opened ${opened} times, closed ${closed} times\n")
    endif()
  endforeach()
  # Bare ampersands and angle brackets inside text would break the XML.
  if(svg MATCHES "&[^a-z#]")
    string(APPEND failures "the SVG has an unescaped '&'\n")
  endif()
  # Well-formed UTF-8 of characters XML 1.0 allows: the bytes as hex, each
  # followed by ';', less every such character, leave nothing. Allowed: tab,
  # line feed, carriage return, 20-7f; any 2-byte form; 3-byte forms but
  # surrogates, U+FFFE and U+FFFF; 4-byte forms to U+10FFFF. (c = a continuation byte.)
  file(READ "${OUT}" bytes HEX)
  string(REGEX REPLACE "(..)" "\\1;" bytes "${bytes}")
  set(c "[89ab][0-9a-f]")
  string(REGEX REPLACE "(0[9ad]|[2-7][0-9a-f]);|(c[2-9a-f]|d[0-9a-f]);${c};|e0;[ab][0-9a-f];${c};|(e[1-9a-c]|ee);${c};${c};|ed;[89][0-9a-f];${c};|ef;([89a][0-9a-f]|b[0-9a-e]);${c};|ef;bf;([89a][0-9a-f]|b[0-9a-d]);|f0;(9[0-9a-f]|[ab][0-9a-f]);${c};${c};|f[1-3];${c};${c};${c};|f4;8[0-9a-f];${c};${c};"
    "" bytes "${bytes}")
  if(NOT bytes STREQUAL "")
    string(SUBSTRING "${bytes}" 0 60 shown)
    string(APPEND failures "the SVG holds bytes that are not UTF-8 or characters XML 1.0 does not allow (hex, ';' after each byte): ${shown}\n")
  endif()
  if(DEFINED EXPECT_PIECES)
    expect_count("pieces on the board" "<g class=\"piece[ \"]" ${EXPECT_PIECES})
  endif()
  if(DEFINED EXPECT_OVERTURNED)
    expect_count("overturned kings" "<g class=\"piece overturned\"" ${EXPECT_OVERTURNED})
  endif()
  if(DEFINED EXPECT_PROMOTED)
    expect_count("promoted pieces" "<g class=\"piece promoted\"" ${EXPECT_PROMOTED})
  endif()
  if(DEFINED EXPECT_CELLS)
    expect_count("board cells" "<rect class=\"cell\"" ${EXPECT_CELLS})
  endif()
  expect_count("last-move squares" "class=\"last-move\"" ${EXPECT_LAST_MOVE})
  foreach(text IN LISTS EXPECT_CONTAINS)
    string(FIND "${svg}" "${text}" at)
    if(at EQUAL -1)
      string(APPEND failures "the SVG does not contain '${text}'\n")
    endif()
  endforeach()
  # Same input, same bytes.
  set(again_command ${command})
  list(TRANSFORM again_command REPLACE "^@OUT@$" "${OUT}.again")
  execute_process(COMMAND ${again_command} RESULT_VARIABLE again_status)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files "${OUT}" "${OUT}.again"
    RESULT_VARIABLE differ)
  if(NOT again_status EQUAL 0 OR NOT differ EQUAL 0)
    string(APPEND failures "a second run did not write the same file\n")
  endif()
  file(REMOVE "${OUT}.again")
endif()

if(failures)
  list(JOIN first_command " " shown)
  message(NOTICE "${shown}\n${failures}")
  message(FATAL_ERROR "the picture is not the expected one")
endif()
