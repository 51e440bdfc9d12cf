# Runs koma-usi on a scripted session and checks what it writes.
#
#   cmake -DSESSION=F [-DPERFT=<koma-perft> -DVARIANT=<descriptor>] [-DSLEEP_TIMES=N] -P run_usi.cmake -- <koma-usi> <argument>...
#
# The session file F holds one item a line:
#   <a USI command>   sent to the engine's standard input as it is
#   #sleep S          the input pauses S seconds (the engine keeps running);
#                     N times S with SLEEP_TIMES=N (the sanitizer builds, whose
#                     engine is several times slower: there a session checks
#                     the protocol, the plain build checks the clock)
#   #pad N TEXT       sends TEXT padded with spaces to N bytes, one line (N is
#                     not bounded by a session file's line or a command line)
#   #raw TEXT         sends TEXT with each \xNN (two hex digits, not 00) as that
#                     byte: control bytes and bytes that are not UTF-8
#   #expect RE        a line of output matches RE as a whole (a CMake regex);
#                     expectations are met in order, each by a line after the
#                     line that met the one before
#   #next RE          the output line right after the last one met matches RE
#                     (the first line, if none was met yet); it counts as an
#                     expectation
#   #legal SFEN       the first `bestmove M` line after that line has M among the
#                     legal moves of SFEN (koma-perft --divide, which needs
#                     PERFT and VARIANT); it counts as an expectation
#   #forbid RE        no line of output matches RE
#   #exit N           the exit status the engine must end with (default 0)
#   ## text           a comment
# Blank lines are skipped. Standard input closes after the last item, so a
# session without `quit` tests end of input. Standard error must stay empty.
#
# The commands are written by a second run of this script (-DFEED=ON), piped
# into the engine, so that #sleep can hold the input back while it thinks.
cmake_minimum_required(VERSION 3.20)

# The lines of `text` as a list whose items carry no list syntax: ';', '[' and
# ']' are encoded, and `decode` gives each line back.
function(encode_lines out text)
  string(REPLACE "@" "@a" text "${text}")
  string(REPLACE ";" "@s" text "${text}")
  string(REPLACE "[" "@l" text "${text}")
  string(REPLACE "]" "@r" text "${text}")
  string(REPLACE "\r" "" text "${text}")
  string(REGEX REPLACE "\n$" "" text "${text}")
  string(REPLACE "\n" ";" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

function(decode out line)
  string(REPLACE "@r" "]" line "${line}")
  string(REPLACE "@l" "[" line "${line}")
  string(REPLACE "@s" ";" line "${line}")
  string(REPLACE "@a" "@" line "${line}")
  set(${out} "${line}" PARENT_SCOPE)
endfunction()

if(NOT DEFINED SESSION)
  message(FATAL_ERROR "usage: cmake -DSESSION=F [-D...] -P run_usi.cmake -- <koma-usi> <argument>...")
endif()
file(READ "${SESSION}" session_text)
encode_lines(session "${session_text}")

if(NOT SLEEP_TIMES)
  set(SLEEP_TIMES 1)
endif()
if(FEED)
  foreach(item IN LISTS session)
    decode(item "${item}")
    if(item MATCHES "^#sleep +([0-9.]+) *$")
      set(seconds ${CMAKE_MATCH_1})
      foreach(time RANGE 1 ${SLEEP_TIMES})
        execute_process(COMMAND ${CMAKE_COMMAND} -E sleep ${seconds})
      endforeach()
    elseif(item MATCHES "^#pad +([0-9]+) (.*)$")
      set(text "${CMAKE_MATCH_2}")
      string(LENGTH "${text}" length)
      math(EXPR spaces "${CMAKE_MATCH_1} - ${length}")
      if(spaces LESS 0)
        message(FATAL_ERROR "#pad ${CMAKE_MATCH_1}: the text is longer than that")
      endif()
      execute_process(COMMAND ${CMAKE_COMMAND} -E echo_append "${text}")
      # In pieces of 32 KiB: one argument of a command line may hold 128 KiB at most.
      string(REPEAT " " 32768 piece)
      while(spaces GREATER 32768)
        execute_process(COMMAND ${CMAKE_COMMAND} -E echo_append "${piece}")
        math(EXPR spaces "${spaces} - 32768")
      endwhile()
      string(REPEAT " " ${spaces} rest)
      execute_process(COMMAND ${CMAKE_COMMAND} -E echo "${rest}")
    elseif(item MATCHES "^#raw (.*)$")
      set(text "${CMAKE_MATCH_1}")
      set(bytes "")
      while(text MATCHES "\\\\x([0-9a-fA-F][0-9a-fA-F])")
        string(FIND "${text}" "${CMAKE_MATCH_0}" at)
        string(SUBSTRING "${text}" 0 ${at} head)
        math(EXPR code "0x${CMAKE_MATCH_1}")
        string(ASCII ${code} byte)
        string(APPEND bytes "${head}${byte}")
        math(EXPR at "${at} + 4")
        string(SUBSTRING "${text}" ${at} -1 text)
      endwhile()
      execute_process(COMMAND ${CMAKE_COMMAND} -E echo "${bytes}${text}")
    elseif(item MATCHES "^#" OR item MATCHES "^[ \t]*$")
      continue()
    else()
      # Inherits this process's standard output: the pipe into the engine.
      execute_process(COMMAND ${CMAKE_COMMAND} -E echo "${item}")
    endif()
  endforeach()
  return()
endif()

include(${CMAKE_CURRENT_LIST_DIR}/command_line.cmake)
koma_command_after_dashes("cmake -DSESSION=F [-D...] -P run_usi.cmake -- <koma-usi> <argument>...")

execute_process(
  COMMAND ${CMAKE_COMMAND} -DFEED=ON "-DSESSION=${SESSION}" "-DSLEEP_TIMES=${SLEEP_TIMES}" -P "${CMAKE_CURRENT_LIST_FILE}"
  COMMAND ${command}
  RESULTS_VARIABLE statuses OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr TIMEOUT 120)
list(GET statuses -1 status)
encode_lines(output "${stdout}")
list(LENGTH output output_count)

set(failures "")
set(expected_exit 0)
set(cursor 0)  # index of the first output line the next expectation may use
foreach(item IN LISTS session)
  decode(item "${item}")
  if(item MATCHES "^#expect (.*)$")
    set(re "${CMAKE_MATCH_1}")
    set(found -1)
    set(i ${cursor})
    while(i LESS output_count)
      list(GET output ${i} line)
      decode(line "${line}")
      if(line MATCHES "^(${re})$")
        set(found ${i})
        break()
      endif()
      math(EXPR i "${i} + 1")
    endwhile()
    if(found LESS 0)
      math(EXPR shown "${cursor} + 1")
      string(APPEND failures "no line from line ${shown} on matches: ${re}\n")
    else()
      math(EXPR cursor "${found} + 1")
    endif()
  elseif(item MATCHES "^#next (.*)$")
    set(re "${CMAKE_MATCH_1}")
    math(EXPR shown "${cursor} + 1")
    if(cursor LESS output_count)
      list(GET output ${cursor} line)
      decode(line "${line}")
      if(line MATCHES "^(${re})$")
        math(EXPR cursor "${cursor} + 1")
      else()
        string(APPEND failures "line ${shown} does not match ${re}: ${line}\n")
      endif()
    else()
      string(APPEND failures "no line ${shown}, expected one matching ${re}\n")
    endif()
  elseif(item MATCHES "^#legal (.*)$")
    set(sfen "${CMAKE_MATCH_1}")
    set(move "")
    set(i ${cursor})
    while(i LESS output_count)
      list(GET output ${i} line)
      decode(line "${line}")
      if(line MATCHES "^bestmove ([^ ]+)")
        set(move "${CMAKE_MATCH_1}")
        math(EXPR cursor "${i} + 1")
        break()
      endif()
      math(EXPR i "${i} + 1")
    endwhile()
    if(move STREQUAL "")
      math(EXPR shown "${cursor} + 1")
      string(APPEND failures "no bestmove from line ${shown} on (for #legal ${sfen})\n")
    elseif(NOT DEFINED PERFT OR NOT DEFINED VARIANT)
      string(APPEND failures "#legal needs -DPERFT=<koma-perft> -DVARIANT=<descriptor>\n")
    else()
      execute_process(COMMAND ${PERFT} --variant ${VARIANT} --position "${sfen}" --depth 1 --divide
        RESULT_VARIABLE perft_status OUTPUT_VARIABLE legal ERROR_VARIABLE perft_error)
      string(FIND "\n${legal}" "\n${move} 1\n" at)
      if(NOT perft_status STREQUAL "0")
        string(APPEND failures "koma-perft failed on ${sfen}: ${perft_error}\n")
      elseif(at LESS 0)
        string(APPEND failures "bestmove ${move} is not a legal move of ${sfen}\n")
      endif()
    endif()
  elseif(item MATCHES "^#forbid (.*)$")
    set(re "${CMAKE_MATCH_1}")
    foreach(line IN LISTS output)
      decode(line "${line}")
      if(line MATCHES "^(${re})$")
        string(APPEND failures "a line matches the forbidden ${re}: ${line}\n")
      endif()
    endforeach()
  elseif(item MATCHES "^#exit ([0-9]+) *$")
    set(expected_exit ${CMAKE_MATCH_1})
  endif()
endforeach()

if(NOT status STREQUAL expected_exit)
  string(APPEND failures "exit status ${status}, expected ${expected_exit}\n")
endif()
if(NOT stderr STREQUAL "")
  string(APPEND failures "standard error, expected empty:\n${stderr}\n")
endif()
if(failures)
  list(JOIN command " " shown)
  message(NOTICE "${shown} < ${SESSION}\n--- standard output:\n${stdout}--- problems:\n${failures}")
  message(FATAL_ERROR "koma-usi did not answer the session as expected")
endif()
