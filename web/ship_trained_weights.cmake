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
# out (its page shows the problems; the tests fail on it), and the build goes on.
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

# After the loop: a translation's check reads its English lesson beside it.
set(digests "")
foreach(path IN LISTS served)
  execute_process(COMMAND ${CLI} check ${path} RESULT_VARIABLE failed OUTPUT_QUIET ERROR_QUIET)
  if(NOT failed)
    file(SHA256 ${path} digest)
    string(APPEND digests "${digest}\n")
  endif()
endforeach()
file(WRITE ${OUT}/checked-digests.txt "${digests}")
