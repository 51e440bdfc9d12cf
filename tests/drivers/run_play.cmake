# Runs koma-play with a scripted standard input and checks what it prints.
#
#   cmake [-D<setting>=<value>]... -P run_play.cmake -- <koma-play> <argument>...
#
# Settings:
#   INPUT=F         standard input (default: nothing, i.e. end of input at once);
#                   two kinds of its lines are expanded first, as run_usi.cmake
#                   does:
#                     #pad N TEXT   TEXT padded with spaces to N bytes
#                     #raw TEXT     TEXT with each \xNN (not 00) as that byte
#   EXPECT=F        expectations on standard output, one a line, checked in order
#                   from the top of the output; each moves a cursor to the line it
#                   matched:
#                     + TEXT     a line after the cursor is exactly TEXT
#                     = TEXT     the line right after the cursor is exactly TEXT
#                     ~ REGEX    a line after the cursor matches REGEX (whole line)
#                     =~ REGEX   the line right after the cursor matches REGEX
#                     ! REGEX    no line after the cursor matches REGEX
#                   Blank lines and lines starting with # are skipped.
#   EXPECT_EXIT=N   the exit status (default 0)
#   EXPECT_STDERR_REGEX=RE  standard error must match RE (default: empty)
#   WORK_DIR=D      run in this folder (created; `save FILE` writes there)
#   REPLAY=<koma-replay> VARIANT=<descriptor> RECORD=F
#                   after the run, `koma-replay --variant VARIANT --record F`
#                   must exit 0 and print the `result ...` line koma-play printed
cmake_minimum_required(VERSION 3.20)

include(${CMAKE_CURRENT_LIST_DIR}/command_line.cmake)
koma_command_after_dashes("cmake [-D...] -P run_play.cmake -- <koma-play> <argument>...")
if(NOT DEFINED EXPECT_EXIT)
  set(EXPECT_EXIT 0)
endif()
if(NOT DEFINED INPUT)
  set(INPUT /dev/null)
endif()
set(work_dir "${CMAKE_CURRENT_BINARY_DIR}")
if(DEFINED WORK_DIR)
  file(MAKE_DIRECTORY "${WORK_DIR}")
  set(work_dir "${WORK_DIR}")
endif()

# #pad and #raw lines: the input is written out expanded.
file(STRINGS "${INPUT}" input_lines)
set(expanded "")
set(expand OFF)
foreach(line IN LISTS input_lines)
  if(line MATCHES "^#pad ([0-9]+) (.*)$")
    set(expand ON)
    string(LENGTH "${CMAKE_MATCH_2}" length)
    math(EXPR spaces "${CMAKE_MATCH_1} - ${length}")
    string(REPEAT " " ${spaces} padding)
    string(APPEND expanded "${CMAKE_MATCH_2}${padding}\n")
  elseif(line MATCHES "^#raw (.*)$")
    set(expand ON)
    set(text "${CMAKE_MATCH_1}")
    while(text MATCHES "\\\\x([0-9a-fA-F][0-9a-fA-F])")
      math(EXPR code "0x${CMAKE_MATCH_1}")
      string(ASCII ${code} byte)
      string(REPLACE "${CMAKE_MATCH_0}" "${byte}" text "${text}")
    endwhile()
    string(APPEND expanded "${text}\n")
  else()
    string(APPEND expanded "${line}\n")
  endif()
endforeach()
if(expand)
  get_filename_component(input_name "${INPUT}" NAME)
  set(INPUT "${work_dir}/${input_name}.expanded")
  file(WRITE "${INPUT}" "${expanded}")
endif()

execute_process(COMMAND ${command} INPUT_FILE "${INPUT}" WORKING_DIRECTORY "${work_dir}"
  RESULT_VARIABLE status OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)

# Lines as a list: ';' would split a line, so it is escaped first.
function(to_lines text out_var)
  string(REPLACE ";" "\\;" text "${text}")
  string(REPLACE "\n" ";" text "${text}")
  set(${out_var} "${text}" PARENT_SCOPE)
endfunction()

set(failures "")
if(NOT status STREQUAL EXPECT_EXIT)
  string(APPEND failures "exit status ${status}, expected ${EXPECT_EXIT}\n")
endif()
if(DEFINED EXPECT_STDERR_REGEX)
  if(NOT stderr MATCHES "${EXPECT_STDERR_REGEX}")
    string(APPEND failures "standard error:\n${stderr}-- expected to match:\n${EXPECT_STDERR_REGEX}\n")
  endif()
elseif(NOT stderr STREQUAL "")
  string(APPEND failures "standard error:\n${stderr}-- expected nothing\n")
endif()

to_lines("${stdout}" out_lines)
list(LENGTH out_lines out_count)
if(DEFINED EXPECT)
  file(STRINGS "${EXPECT}" expectations ENCODING UTF-8)
  set(cursor -1)  # index of the line last matched
  foreach(expectation IN LISTS expectations)
    if(expectation STREQUAL "" OR expectation MATCHES "^#")
      continue()
    endif()
    if(NOT expectation MATCHES "^(\\+|=|~|=~|!) (.*)$")
      message(FATAL_ERROR "${EXPECT}: not an expectation: '${expectation}'")
    endif()
    set(kind "${CMAKE_MATCH_1}")
    set(want "${CMAKE_MATCH_2}")
    math(EXPR from "${cursor} + 1")
    if(kind STREQUAL "!")
      set(i ${from})
      while(i LESS out_count)
        list(GET out_lines ${i} line)
        if(line MATCHES "^(${want})$")
          string(APPEND failures "line ${i}: '${line}' matches '${want}', which no line there may\n")
        endif()
        math(EXPR i "${i} + 1")
      endwhile()
      continue()
    endif()
    set(to "${from}")
    if(kind STREQUAL "+" OR kind STREQUAL "~")
      math(EXPR to "${out_count} - 1")
    endif()
    set(found -1)
    if(from LESS out_count)
      foreach(i RANGE ${from} ${to})
        if(i GREATER_EQUAL out_count)
          break()
        endif()
        list(GET out_lines ${i} line)
        if(kind MATCHES "~")
          if(line MATCHES "^(${want})$")
            set(found ${i})
          endif()
        elseif(line STREQUAL want)
          set(found ${i})
        endif()
        if(NOT found EQUAL -1)
          break()
        endif()
      endforeach()
    endif()
    if(found EQUAL -1)
      set(at "the end of the output")
      if(from LESS out_count)
        list(GET out_lines ${from} next_line)
        set(at "line ${from}: '${next_line}'")
      endif()
      string(APPEND failures "expected '${kind} ${want}' from ${at}\n")
      break()  # later expectations would only repeat the failure
    endif()
    set(cursor ${found})
  endforeach()
endif()

if(DEFINED REPLAY)
  string(REGEX MATCH "\nresult [^\n]*\n" result_line "\n${stdout}")
  string(STRIP "${result_line}" result_line)
  if(result_line STREQUAL "")
    string(APPEND failures "no 'result ...' line to compare with koma-replay\n")
  else()
    execute_process(COMMAND ${REPLAY} --variant ${VARIANT} --record ${RECORD}
      RESULT_VARIABLE replay_status OUTPUT_VARIABLE replay_out ERROR_VARIABLE replay_err)
    if(NOT replay_status STREQUAL "0")
      string(APPEND failures "koma-replay of ${RECORD} exits ${replay_status}: ${replay_err}\n")
    elseif(NOT replay_out MATCHES "\n${result_line}\n")
      string(APPEND failures "koma-replay prints\n${replay_out}-- expected the line '${result_line}'\n")
    endif()
  endif()
endif()

if(failures)
  list(JOIN command " " shown)
  message(NOTICE "${shown} < ${INPUT}\nstandard output:\n${stdout}--\n${failures}")
  message(FATAL_ERROR "koma-play's output is not the expected one")
endif()
