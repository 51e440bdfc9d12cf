# Runs a koma-match and checks its table and record (docs/ai.md#output).
#
#   cmake -DRECORD=F -DSEATS=N [-D<setting>=<value>]... -P run_match.cmake -- <koma-match> <argument>...
#
# The match runs with `--record F` added; it must exit 0 with nothing on
# standard error. Then:
#   - every row of the table has as many games as its place counts add up to,
#     no more draws than games, and the rows add up to SEATS games per game of
#     the `total games N` line; N must equal the record's number of lines;
#   EXPECT_ROWS="level:games;..."  those rows have those game counts;
#   REPLAY=<koma-replay> VARIANT=<descriptor>  every game of the record replays
#     through `koma-replay --variant VARIANT --record F --game g` with exit 0
#     and the `result` line the record gives;
#   JOBS=J  the match runs again with `--jobs J --record F.jobs`: standard
#     output (the time on the total line aside) and the record must be the same,
#     byte for byte.
cmake_minimum_required(VERSION 3.20)

include(${CMAKE_CURRENT_LIST_DIR}/command_line.cmake)
koma_command_after_dashes("cmake -DRECORD=F -DSEATS=N [-D...] -P run_match.cmake -- <koma-match> <argument>...")
if(NOT DEFINED RECORD OR NOT DEFINED SEATS)
  message(FATAL_ERROR "usage: cmake -DRECORD=F -DSEATS=N [-D...] -P run_match.cmake -- <koma-match> <argument>...")
endif()

set(failures "")
macro(fail text)
  string(APPEND failures "${text}\n")
endmacro()

function(run_match out_var record)
  file(REMOVE "${record}")
  execute_process(COMMAND ${command} ${ARGN} --record "${record}"
    RESULT_VARIABLE status OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
  list(JOIN command " " shown)
  if(NOT status STREQUAL "0" OR NOT stderr STREQUAL "")
    message(FATAL_ERROR "${shown} ${ARGN} --record ${record}\nexit status ${status}\n"
      "standard output:\n${stdout}standard error:\n${stderr}")
  endif()
  set(${out_var} "${stdout}" PARENT_SCOPE)
endfunction()

run_match(stdout "${RECORD}")

# The table.
string(REPLACE "\n" ";" lines "${stdout}")
set(in_table OFF)
set(seat_games 0)
set(total "")
foreach(line IN LISTS lines)
  if(line MATCHES "^level ")
    set(in_table ON)
    continue()
  endif()
  if(line MATCHES "^total games ([0-9]+)  time [0-9.]+ s$")
    set(total ${CMAKE_MATCH_1})
    set(in_table OFF)
    continue()
  endif()
  if(NOT in_table)
    continue()
  endif()
  string(REGEX REPLACE " +" ";" fields "${line}")
  list(LENGTH fields count)
  math(EXPR expected_count "${SEATS} + 5")
  if(NOT count EQUAL expected_count)
    fail("row '${line}': ${count} columns, expected ${expected_count}")
    continue()
  endif()
  list(GET fields 0 level)
  list(GET fields 1 games)
  math(EXPR draws_at "${SEATS} + 3")
  list(GET fields ${draws_at} draws)
  set(place_sum 0)
  foreach(k RANGE 1 ${SEATS})
    math(EXPR at "${k} + 2")
    list(GET fields ${at} c)
    math(EXPR place_sum "${place_sum} + ${c}")
  endforeach()
  if(NOT place_sum EQUAL games)
    fail("row '${line}': the places add up to ${place_sum}, not ${games}")
  endif()
  if(draws GREATER games)
    fail("row '${line}': more draws than games")
  endif()
  math(EXPR seat_games "${seat_games} + ${games}")
  set(row_${level} ${games})
endforeach()
if(total STREQUAL "")
  fail("no 'total games N  time S s' line")
else()
  math(EXPR expected "${total} * ${SEATS}")
  if(NOT seat_games EQUAL expected)
    fail("the rows hold ${seat_games} seat-games, expected ${expected} (${total} games)")
  endif()
endif()
foreach(row IN LISTS EXPECT_ROWS)
  string(REPLACE ":" ";" row "${row}")
  list(GET row 0 level)
  list(GET row 1 games)
  if(NOT "${row_${level}}" STREQUAL "${games}")
    fail("level ${level}: '${row_${level}}' games, expected ${games}")
  endif()
endforeach()

# The record, and each game replayed.
file(STRINGS "${RECORD}" games REGEX ".")
list(LENGTH games record_games)
if(NOT "${record_games}" STREQUAL "${total}")
  fail("the record holds ${record_games} games, the table ${total}")
endif()
if(DEFINED REPLAY)
  set(g 0)
  foreach(game IN LISTS games)
    math(EXPR g "${g} + 1")
    string(JSON places GET "${game}" result places)
    string(JSON count LENGTH "${places}")
    math(EXPR last "${count} - 1")
    set(result_line "result")
    foreach(i RANGE ${last})
      string(JSON place GET "${places}" ${i})
      string(APPEND result_line " ${place}")
    endforeach()
    string(JSON reason GET "${game}" result reason)
    string(APPEND result_line " ${reason}")
    execute_process(COMMAND ${REPLAY} --variant ${VARIANT} --record ${RECORD} --game ${g}
      RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT status STREQUAL "0")
      fail("game ${g}: koma-replay exits ${status}: ${err}")
    elseif(NOT out MATCHES "\n${result_line}\n")
      fail("game ${g}: koma-replay prints\n${out}-- expected the line '${result_line}'")
    endif()
  endforeach()
endif()

# The same match on J threads.
if(DEFINED JOBS)
  run_match(stdout_jobs "${RECORD}.jobs" --jobs ${JOBS})
  # Timings (the total time, the speed lines) are the only output allowed to differ.
  string(REGEX REPLACE "  time [0-9.]+ s\n" "  time - s\n" a "${stdout}")
  string(REGEX REPLACE "  time [0-9.]+ s\n" "  time - s\n" b "${stdout_jobs}")
  string(REGEX REPLACE "speed [^\n]*\n" "" a "${a}")
  string(REGEX REPLACE "speed [^\n]*\n" "" b "${b}")
  if(NOT a STREQUAL b)
    fail("--jobs ${JOBS} prints\n${stdout_jobs}-- instead of\n${stdout}--")
  endif()
  file(READ "${RECORD}" one)
  file(READ "${RECORD}.jobs" many)
  if(NOT one STREQUAL many)
    fail("--jobs ${JOBS} writes a different record (${RECORD}.jobs, not ${RECORD})")
  endif()
endif()

if(failures)
  list(JOIN command " " shown)
  message(NOTICE "${shown}\n${stdout}--\n${failures}")
  message(FATAL_ERROR "the match's output is not the expected one")
endif()
