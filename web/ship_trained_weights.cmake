# cmake -DCLI=neuralpath-cli -DOUT=dir -DLESSONS="a.md|es/a.md" -P ship_trained_weights.cmake
# The lessons as the site serves them (issue #10): a lesson whose task trains the lesson's weights
# (`lesson-weights: trained`) gets those weights trained here, at build time, by the native
# `neuralpath-cli train --ship` (same seed, same weights), appended as a ```trained-weights
# block; the page then loads them instead of training when the lesson opens. The other lessons
# are copied as they are. Written to OUT/<name>.md, and a translation lessons/<lang>/<name>.md to
# OUT/<lang>/<name>.md, which assemble_site.cmake puts in the site.
#
# Then each served text is checked as `neuralpath-cli check` checks a lesson (the engine's checks
# included), and the SHA-256 of every one that passes goes to OUT/checked-digests.txt: the page
# skips the engine's checks for a text with a listed digest (np-app.js). One that fails is left
# out (its page shows the problems; the tests fail on it), and the build goes on. Its widget kinds
# go to OUT/lesson-kinds.txt.
string(REPLACE "|" ";" LESSONS "${LESSONS}")
foreach(path IN LISTS LESSONS)
  get_filename_component(name ${path} NAME)
  get_filename_component(folder ${path} DIRECTORY)
  get_filename_component(folder ${folder} NAME)
  set(out ${OUT})
  if(NOT folder STREQUAL "lessons")
    set(out ${OUT}/${folder})  # a translation: lessons/<lang>/
  endif()
  file(MAKE_DIRECTORY ${out})
  file(READ ${path} text)
  file(STRINGS ${path} trains REGEX "^lesson-weights:[ \t]*trained[ \t]*$")
  if(trains)
    execute_process(COMMAND ${CLI} train --lesson ${path} --ship ${out}/${name}.weights
                    RESULT_VARIABLE failed OUTPUT_QUIET ERROR_VARIABLE why)
    if(failed)
      message(FATAL_ERROR "training the weights of ${path} failed: ${why}")
    endif()
    file(READ ${out}/${name}.weights block)
    file(REMOVE ${out}/${name}.weights)
    string(APPEND text "\n${block}")
  endif()
  file(WRITE ${out}/${name}.tmp "${text}")
  file(RENAME ${out}/${name}.tmp ${out}/${name})  # whole or not at all
  list(APPEND served ${out}/${name})
endforeach()

# After the loop: a translation's check reads its English lesson beside it. The same call lists
# the widget kinds each text uses, which choose its lesson's engine (assemble_site.cmake):
# OUT/lesson-kinds.txt has a line "PATH=kind,kind" per text, and "PATH=!" for one that failed
# (it gets the engine with every kind, whose page then shows its problems).
set(digests "")
set(kind_lines "")
foreach(path IN LISTS served)
  execute_process(COMMAND ${CLI} check --kinds ${path} RESULT_VARIABLE failed OUTPUT_VARIABLE listed ERROR_QUIET)
  if(failed)
    string(APPEND kind_lines "${path}=!\n")
  else()
    file(SHA256 ${path} digest)
    string(APPEND digests "${digest}\n")
    string(JSON count LENGTH "${listed}" kinds)
    set(kinds "")
    if(count GREATER 0)
      math(EXPR last "${count} - 1")
      foreach(i RANGE ${last})
        string(JSON kind GET "${listed}" kinds ${i})
        list(APPEND kinds ${kind})
      endforeach()
    endif()
    list(JOIN kinds "," kinds)
    string(APPEND kind_lines "${path}=${kinds}\n")
  endif()
endforeach()
file(WRITE ${OUT}/checked-digests.txt "${digests}")
file(WRITE ${OUT}/lesson-kinds.txt "${kind_lines}")
