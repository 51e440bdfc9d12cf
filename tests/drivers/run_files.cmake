# Runs a driver on files that are not what a driver expects (a FIFO, a link to
# a device, a record too large or with an over-long line) and checks its exit
# status, its standard error and what is left of those files. The run has a
# time limit, so a driver that waits on a FIFO fails instead of hanging.
#
#   cmake -DWORK=<folder> [-D<setting>=<value>]... -P run_files.cmake -- <program> <argument>...
#
# WORK is emptied and created first; "@WORK@" in an argument becomes WORK.
# Standard input is empty. Settings:
#   FIFO=NAME                WORK/NAME is made a FIFO (mkfifo)
#   LINK=NAME:TARGET         WORK/NAME is made a symbolic link to TARGET
#   SIZE=NAME:BYTES          WORK/NAME is made a file of BYTES zero bytes (truncate)
#   PADDED=NAME:BYTES:FILE   WORK/NAME is made BYTES spaces, a newline, then FILE
#   EXPECT_EXIT=N            the exit status (default 0)
#   EXPECT_STDERR=TEXT       standard error must be exactly this one line
#   EXPECT_STDERR_REGEX=RE   standard error must match RE
#                            (without either, standard error must be empty)
#   EXPECT_LINK=NAME         WORK/NAME must still be a symbolic link afterwards
#   TIME_LIMIT=S             seconds the driver may take (default 20)
cmake_minimum_required(VERSION 3.20)

include(${CMAKE_CURRENT_LIST_DIR}/command_line.cmake)
set(usage "cmake -DWORK=<folder> [-D...] -P run_files.cmake -- <program> <argument>...")
koma_command_after_dashes("${usage}")
if(NOT DEFINED WORK)
  message(FATAL_ERROR "usage: ${usage}")
endif()
if(NOT DEFINED TIME_LIMIT)
  set(TIME_LIMIT 20)
endif()
if(NOT DEFINED EXPECT_EXIT)
  set(EXPECT_EXIT 0)
endif()

# Runs `command... path` to make the file `path`; stops if that fails.
function(make_file path)
  execute_process(COMMAND ${ARGN} "${path}" RESULT_VARIABLE made)
  if(NOT made EQUAL 0)
    message(FATAL_ERROR "cannot make ${path}")
  endif()
endfunction()

file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
if(DEFINED FIFO)
  make_file("${WORK}/${FIFO}" mkfifo)
endif()
if(DEFINED LINK)
  string(REGEX MATCH "^([^:]+):(.+)$" parts "${LINK}")
  file(CREATE_LINK "${CMAKE_MATCH_2}" "${WORK}/${CMAKE_MATCH_1}" SYMBOLIC)
endif()
if(DEFINED SIZE)
  string(REGEX MATCH "^([^:]+):([0-9]+)$" parts "${SIZE}")
  make_file("${WORK}/${CMAKE_MATCH_1}" truncate -s ${CMAKE_MATCH_2})
endif()
if(DEFINED PADDED)
  string(REGEX MATCH "^([^:]+):([0-9]+):(.+)$" parts "${PADDED}")
  set(name "${CMAKE_MATCH_1}")
  string(REPEAT " " ${CMAKE_MATCH_2} padding)
  file(READ "${CMAKE_MATCH_3}" tail)
  file(WRITE "${WORK}/${name}" "${padding}\n${tail}")
endif()

list(TRANSFORM command REPLACE "@WORK@" "${WORK}")
execute_process(COMMAND ${command} INPUT_FILE /dev/null TIMEOUT ${TIME_LIMIT}
  RESULT_VARIABLE status OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)

set(failures "")
if(NOT status STREQUAL EXPECT_EXIT)
  string(APPEND failures "exit status ${status}, expected ${EXPECT_EXIT}\n")
endif()
koma_check_stderr()
if(DEFINED EXPECT_LINK AND NOT IS_SYMLINK "${WORK}/${EXPECT_LINK}")
  string(APPEND failures "${WORK}/${EXPECT_LINK} is no longer a symbolic link\n")
endif()
if(failures)
  list(JOIN command " " shown)
  message(NOTICE "${shown}\n${failures}")
  message(FATAL_ERROR "the driver did not treat the file as expected")
endif()
