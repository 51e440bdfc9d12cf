# Runs a driver and checks its exit status, standard output and standard error.
#
#   cmake [-D<setting>=<value>]... -P run_driver.cmake -- <program> <argument>...
#
# Settings:
#   EXPECT_EXIT=N            the exit status (default 0)
#   EXPECT_STDOUT_FILE=F     standard output must equal the contents of F
#   RECORD=F RECORD_GAME=N   standard output must be what koma-replay prints
#                            (docs/notation.md#game-records) for game N (from
#                            1) of the JSON Lines file F, taken from the record
#                            itself: `position` is its final_position, `to-move`
#                            and `eliminated` that text's fields, `result` its
#                            places and reason (no line when the result is
#                            null); `in-check` may list any seats
#   An argument @MOVES@ is replaced by that game's moves, joined by spaces.
#   EXPECT_STDOUT_REGEX=RE   standard output must match RE (for output that
#                            holds measurements, such as koma-bench's times)
#   EXPECT_STDERR=TEXT       standard error must be exactly this one line
#   EXPECT_STDERR_REGEX=RE   standard error must match RE
#   TIME_LIMIT=S             the driver is stopped after S seconds and fails
#                            (a driver that hangs; default: no limit)
# Without an expectation, that stream must be empty.
cmake_minimum_required(VERSION 3.20)

include(${CMAKE_CURRENT_LIST_DIR}/command_line.cmake)
koma_command_after_dashes("cmake [-D...] -P run_driver.cmake -- <program> <argument>...")
if(NOT DEFINED EXPECT_EXIT)
  set(EXPECT_EXIT 0)
endif()

set(expected_stdout "")
if(DEFINED EXPECT_STDOUT_FILE)
  file(READ "${EXPECT_STDOUT_FILE}" expected_stdout)
elseif(DEFINED RECORD)
  file(STRINGS "${RECORD}" games REGEX ".")
  math(EXPR index "${RECORD_GAME} - 1")
  list(GET games ${index} game)
  string(JSON final GET "${game}" final_position)
  string(REPLACE " " ";" fields "${final}")
  list(GET fields 1 to_move)
  list(GET fields 4 eliminated)
  # The in-check line is filled in from the actual output below.
  set(expected_stdout "position ${final}\nto-move ${to_move}\n@IN_CHECK@\neliminated ${eliminated}\n")
  string(JSON result_type TYPE "${game}" result)
  if(NOT result_type STREQUAL "NULL")
    string(JSON places GET "${game}" result places)
    string(JSON count LENGTH "${places}")
    math(EXPR last "${count} - 1")
    set(result_line "result")
    foreach(i RANGE ${last})
      string(JSON place GET "${places}" ${i})
      string(APPEND result_line " ${place}")
    endforeach()
    string(JSON reason GET "${game}" result reason)
    string(APPEND expected_stdout "${result_line} ${reason}\n")
  endif()
  string(JSON count LENGTH "${game}" moves)
  set(moves "")
  if(count GREATER 0)
    math(EXPR last "${count} - 1")
    foreach(i RANGE ${last})
      string(JSON move GET "${game}" moves ${i})
      list(APPEND moves "${move}")
    endforeach()
  endif()
  list(JOIN moves " " moves)
  list(TRANSFORM command REPLACE "^@MOVES@$" "${moves}")
endif()

set(time_limit "")
if(DEFINED TIME_LIMIT)
  set(time_limit TIMEOUT ${TIME_LIMIT})
endif()
execute_process(COMMAND ${command} ${time_limit}
  RESULT_VARIABLE status OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)

if(DEFINED RECORD AND NOT DEFINED EXPECT_STDOUT_FILE)
  string(REGEX MATCH "\nin-check [^\n]*\n" in_check "${stdout}")
  string(STRIP "${in_check}" in_check)
  if(in_check MATCHES "^in-check (-|[0-9]+(,[0-9]+)*)$")
    string(REPLACE "@IN_CHECK@" "${in_check}" expected_stdout "${expected_stdout}")
  else()
    string(REPLACE "@IN_CHECK@" "in-check <seats>|-" expected_stdout "${expected_stdout}")
  endif()
endif()

set(failures "")
if(NOT status STREQUAL EXPECT_EXIT)
  string(APPEND failures "exit status ${status}, expected ${EXPECT_EXIT}\n")
endif()
if(DEFINED EXPECT_STDOUT_REGEX)
  if(NOT stdout MATCHES "${EXPECT_STDOUT_REGEX}")
    string(APPEND failures "standard output:\n${stdout}-- does not match:\n${EXPECT_STDOUT_REGEX}\n")
  endif()
elseif(NOT stdout STREQUAL expected_stdout)
  string(APPEND failures "standard output:\n${stdout}-- expected:\n${expected_stdout}--\n")
endif()
koma_check_stderr()
if(failures)
  list(JOIN command " " shown)
  message(NOTICE "${shown}\n${failures}")
  message(FATAL_ERROR "the driver's output is not the expected one")
endif()
