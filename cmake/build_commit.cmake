# Script mode (cmake -P), run at every build: writes OUT, the git commit of SOURCE_DIR and whether its
# tracked files have uncommitted changes. Outside a git work tree of its own (a release tarball, even
# unpacked inside another repository) the commit is "unknown". configure_file rewrites OUT only when
# its content changes, so a build with the same commit and mark recompiles and relinks nothing.
set(commit unknown)
set(dirty false)
find_program(HETLB_GIT git)
if(HETLB_GIT)
  set(ENV{GIT_OPTIONAL_LOCKS} 0)  # a build never takes the index lock of a git command run meanwhile
  execute_process(COMMAND ${HETLB_GIT} -C ${SOURCE_DIR} rev-parse --show-toplevel
                  OUTPUT_VARIABLE top RESULT_VARIABLE top_rc OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  file(REAL_PATH "${SOURCE_DIR}" source_real)
  if(top_rc EQUAL 0)
    file(REAL_PATH "${top}" top_real)
  endif()
  if(top_rc EQUAL 0 AND top_real STREQUAL source_real)
    execute_process(COMMAND ${HETLB_GIT} -C ${SOURCE_DIR} rev-parse --verify HEAD
                    OUTPUT_VARIABLE head RESULT_VARIABLE head_rc OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(head_rc EQUAL 0 AND head MATCHES "^[0-9a-f]+$")
      set(commit ${head})
      execute_process(COMMAND ${HETLB_GIT} -C ${SOURCE_DIR} status --porcelain --untracked-files=no
                      OUTPUT_VARIABLE changes RESULT_VARIABLE status_rc ERROR_QUIET)
      if(NOT status_rc EQUAL 0 OR NOT changes STREQUAL "")
        set(dirty true)
      endif()
    endif()
  endif()
endif()
set(HETLB_BUILD_COMMIT ${commit})
set(HETLB_BUILD_DIRTY ${dirty})
configure_file(${CMAKE_CURRENT_LIST_DIR}/build_commit.cpp.in ${OUT} @ONLY)
