# Checks that every repository path the sources and documents cite exists.
#
#   cmake -DROOT=<source tree> -P check_paths.cmake
#
# ctest runs it as docs.paths (tests/CMakeLists.txt).
#
# Scanned: the comments of lib/, include/, examples/ and tests/ (*.cpp, *.hpp,
# *.cmake, CMakeLists.txt, tests/fuzz/*.dict, the descriptor copies in
# tests/fuzz/corpus/descriptor/), the comments of variants/*.yaml, and the whole
# text of README.md, docs/**/*.md and tests/**/*.md.
#
# A cited path is a word with a slash in it:
#   - whose first part is a folder at the top of the tree (docs/notation.md,
#     variants/yonin.yaml, include/koma/ai.hpp): it must exist there, or next to
#     the citing file;
#   - whose first part is a folder next to the citing file (data/x.jsonl in
#     tests/CMakeLists.txt): it must exist there;
#   - that starts with ../: it must exist relative to the citing file (a
#     leading ./ is dropped: ./koma_tests is a command, not a citation);
#   - or, in Markdown, the target of a link or picture, [text](target):
#     relative to the Markdown file.
# Ignored: URLs (scheme://...), anything after '#' (an anchor), absolute paths,
# paths under build*/, and the example_paths below. Every missing path is
# printed as FILE:LINE: PATH does not exist.
#
# The project's rules and conventions are documented in docs/; a citation of
# the upper-case specification pages that live outside the repository (their
# names are assembled below, so this file does not cite them itself) fails too.
cmake_minimum_required(VERSION 3.20)

if(NOT DEFINED ROOT)
  message(FATAL_ERROR "usage: cmake -DROOT=<source tree> -P check_paths.cmake")
endif()
get_filename_component(ROOT "${ROOT}" ABSOLUTE)

set(outside_pages RULES DRIVERS NOTATION ARCHITECTURE)
list(JOIN outside_pages "|" outside_alternatives)
set(outside_regex "(^|[^A-Za-z0-9_])((${outside_alternatives})\\.md)")

# Paths the documents name as examples of a user's own files (in error
# messages), not as files of the repository.
set(example_paths variants/mine.yaml)

# Top-level folders a cited path may start with (not build*/, not hidden ones).
file(GLOB top_entries RELATIVE "${ROOT}" "${ROOT}/*")
set(top_dirs "")
foreach(entry IN LISTS top_entries)
  if(IS_DIRECTORY "${ROOT}/${entry}" AND NOT entry MATCHES "^(build|\\.)")
    list(APPEND top_dirs "${entry}")
  endif()
endforeach()

# The files, as paths relative to ROOT, each with its kind of comments.
set(code_files "")
foreach(dir lib include examples tests)
  file(GLOB_RECURSE found RELATIVE "${ROOT}" "${ROOT}/${dir}/*.cpp" "${ROOT}/${dir}/*.hpp")
  list(APPEND code_files ${found})
endforeach()
set(hash_files "")
foreach(dir lib include examples tests)
  file(GLOB_RECURSE found RELATIVE "${ROOT}" "${ROOT}/${dir}/*.cmake"
    "${ROOT}/${dir}/CMakeLists.txt")
  list(APPEND hash_files ${found})
endforeach()
file(GLOB found RELATIVE "${ROOT}" "${ROOT}/tests/fuzz/*.dict")
list(APPEND hash_files ${found})
file(GLOB yaml_files RELATIVE "${ROOT}" "${ROOT}/variants/*.yaml"
  "${ROOT}/tests/fuzz/corpus/descriptor/*.yaml")
file(GLOB_RECURSE markdown_files RELATIVE "${ROOT}" "${ROOT}/docs/*.md" "${ROOT}/tests/*.md")
list(APPEND markdown_files README.md)

string(ASCII 1 semicolon_mark)
string(ASCII 2 backslash_mark)
string(ASCII 3 open_mark)
string(ASCII 4 close_mark)

set(problems "")
set(checked 0)

# Checks one cited path `path` from `file` (relative to ROOT) at `line`. With
# `link` TRUE (a Markdown link target) the path is relative to the file; else a
# leading ./ is dropped (./example is a command) and the first part decides.
function(check_path file line path link)
  string(REGEX REPLACE "#.*$" "" path "${path}")
  string(REGEX REPLACE "[.,:;-]+$" "" path "${path}")
  if(NOT link)
    string(REGEX REPLACE "^(\\./)+" "" path "${path}")
  endif()
  if(path STREQUAL "" OR path MATCHES "^/" OR path MATCHES "//" OR path IN_LIST example_paths)
    return()
  endif()
  get_filename_component(file_dir "${ROOT}/${file}" DIRECTORY)
  set(candidates "")
  if(link OR path MATCHES "^\\.\\./")
    list(APPEND candidates "${file_dir}/${path}")
  else()
    string(REGEX MATCH "^[^/]+" first "${path}")
    if(first IN_LIST top_dirs)
      list(APPEND candidates "${ROOT}/${path}" "${file_dir}/${path}")
    elseif(NOT first STREQUAL "" AND IS_DIRECTORY "${file_dir}/${first}")
      list(APPEND candidates "${file_dir}/${path}")
    endif()
  endif()
  if(NOT candidates)
    return()
  endif()
  math(EXPR n "${checked} + 1")
  set(checked ${n} PARENT_SCOPE)
  foreach(candidate IN LISTS candidates)
    get_filename_component(candidate "${candidate}" ABSOLUTE)
    file(RELATIVE_PATH inside "${ROOT}" "${candidate}")
    if(inside MATCHES "^build" OR EXISTS "${candidate}")
      return()
    endif()
  endforeach()
  set(problems "${problems}${file}:${line}: ${path} does not exist\n" PARENT_SCOPE)
endfunction()

# Checks the paths cited in `text`, a line (or its comment) of `file`.
function(check_text file line text)
  # URLs are not repository paths.
  string(REGEX REPLACE "[A-Za-z][A-Za-z0-9+.-]*://[^ \t)>\"'`]*" " " text "${text}")
  string(REGEX MATCHALL "[A-Za-z0-9_.+/-]*[A-Za-z0-9_.+-]/[A-Za-z0-9_.+/#-]*" paths "${text}")
  foreach(path IN LISTS paths)
    check_path("${file}" "${line}" "${path}" FALSE)
  endforeach()
  set(problems "${problems}" PARENT_SCOPE)
  set(checked ${checked} PARENT_SCOPE)
endfunction()

# The lines of `file` as a list; ; \ [ ] are replaced by marks so that every
# line is one list element.
function(read_lines file out)
  file(READ "${ROOT}/${file}" content)
  string(REPLACE "\\" "${backslash_mark}" content "${content}")
  string(REPLACE ";" "${semicolon_mark}" content "${content}")
  string(REPLACE "[" "${open_mark}" content "${content}")
  string(REPLACE "]" "${close_mark}" content "${content}")
  string(REPLACE "\n" ";" content "${content}")
  set(${out} "${content}" PARENT_SCOPE)
endfunction()

# The comment of a line: the text after the first `marker` that is not inside
# a "..." string; "" if there is none.
function(comment_of text marker out)
  set(${out} "" PARENT_SCOPE)
  set(rest "${text}")
  set(before "")
  while(TRUE)
    string(FIND "${rest}" "${marker}" at)
    if(at LESS 0)
      return()
    endif()
    string(SUBSTRING "${rest}" 0 ${at} head)
    string(APPEND before "${head}")
    string(REGEX REPLACE "[^\"]" "" quotes "${before}")
    string(LENGTH "${quotes}" quote_count)
    math(EXPR odd "${quote_count} % 2")
    string(LENGTH "${marker}" marker_length)
    math(EXPR after "${at} + ${marker_length}")
    string(SUBSTRING "${rest}" ${after} -1 rest)
    if(NOT odd)
      set(${out} "${rest}" PARENT_SCOPE)
      return()
    endif()
    string(APPEND before "${marker}")
  endwhile()
endfunction()

function(scan file kind)
  read_lines("${file}" lines)
  set(number 0)
  foreach(marked IN LISTS lines)
    math(EXPR number "${number} + 1")
    string(REPLACE "${open_mark}" "[" text "${marked}")
    string(REPLACE "${close_mark}" "]" text "${text}")
    if(text MATCHES "${outside_regex}")
      set(problems "${problems}${file}:${number}: cites ${CMAKE_MATCH_2}, which is not in the repository\n")
    endif()
    if(kind STREQUAL "markdown")
      set(comment "${text}")
      # Matched with the marks in place: a list element holding [ or ] would
      # not split at its semicolons (two links on a line came out as one).
      string(REGEX MATCHALL "${close_mark}\\([^) ]*\\)" links "${marked}")
      foreach(link IN LISTS links)
        string(REGEX REPLACE "^${close_mark}\\((.*)\\)$" "\\1" target "${link}")
        if(NOT target MATCHES "^(#|[A-Za-z][A-Za-z0-9+.-]*:)" AND NOT target STREQUAL "")
          check_path("${file}" "${number}" "${target}" TRUE)
        endif()
      endforeach()
    elseif(kind STREQUAL "code")
      if(NOT text MATCHES "//")
        continue()
      endif()
      comment_of("${text}" "//" comment)
    elseif(text MATCHES "#")
      comment_of("${text}" "#" comment)
    else()
      continue()
    endif()
    if(NOT comment STREQUAL "")
      check_text("${file}" "${number}" "${comment}")
    endif()
  endforeach()
  set(problems "${problems}" PARENT_SCOPE)
  set(checked ${checked} PARENT_SCOPE)
endfunction()

foreach(file IN LISTS code_files)
  scan("${file}" code)
endforeach()
foreach(file IN LISTS hash_files yaml_files)
  scan("${file}" hash)
endforeach()
foreach(file IN LISTS markdown_files)
  scan("${file}" markdown)
endforeach()

list(LENGTH code_files n_code)
list(LENGTH hash_files n_hash)
list(LENGTH yaml_files n_yaml)
list(LENGTH markdown_files n_markdown)
math(EXPR n_files "${n_code} + ${n_hash} + ${n_yaml} + ${n_markdown}")
if(NOT problems STREQUAL "")
  string(REPLACE "${semicolon_mark}" ";" problems "${problems}")
  string(REPLACE "${backslash_mark}" "\\" problems "${problems}")
  message(NOTICE "${problems}")
  message(FATAL_ERROR "cited paths that are not in the repository (${checked} paths in ${n_files} files checked)")
endif()
message(STATUS "${checked} cited paths in ${n_files} files: all exist")
