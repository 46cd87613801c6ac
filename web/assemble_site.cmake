# cmake -DSITE=dir -DSHELL_FILES="a|b" -DLESSONS="x.md|y.md" -P assemble_site.cmake
cmake_minimum_required(VERSION 3.21)  # IN_LIST and the other policies of the project
# Puts the static site together beside the lesson engines (ENGINES, already linked into SITE):
#   - the shell files (HTML, CSS, JS glue), as they are;
#   - lessons/*.md and lessons/index.json, the list the home page shows, read from each
#     (translations likewise: lessons/<lang>/*.md and lessons/<lang>/index.json),
#     lesson's front matter (`key: value` lines between the opening and closing `---`);
#   - asset-sizes.json, the byte sizes the loading bar counts against (a compressed response's
#     Content-Length would understate them);
#   - the engines' content-hashed copies, and in lesson.html which engine each lesson loads.
string(REPLACE "|" ";" SHELL_FILES "${SHELL_FILES}")
string(REPLACE "|" ";" LESSONS "${LESSONS}")
string(REPLACE "|" ";" STRINGS "${STRINGS}")
file(MAKE_DIRECTORY ${SITE}/lessons)
# The word catalogues, lessons/strings/<lang>.strings, and lessons/languages.json for the
# page's language menu: {"en": "English", "es": "Español"} from each file's [language] name.
set(language_names "")
foreach(path IN LISTS STRINGS)
  file(COPY ${path} DESTINATION ${SITE}/lessons/strings)
  get_filename_component(code ${path} NAME_WE)
  file(STRINGS ${path} lines ENCODING UTF-8)
  set(section "")
  set(name "${code}")
  foreach(line IN LISTS lines)
    if(line MATCHES "^[ \t]*\\[([^]]*)\\][ \t]*$")
      set(section "${CMAKE_MATCH_1}")
    elseif(section STREQUAL "language" AND line MATCHES "^[ \t]*name[ \t]*=[ \t]*(.*[^ \t])[ \t]*$")
      set(name "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  string(REPLACE "\\" "\\\\" name "${name}")
  string(REPLACE "\"" "\\\"" name "${name}")
  list(APPEND language_names "\"${code}\": \"${name}\"")
endforeach()
list(JOIN language_names ", " languages_body)
file(WRITE ${SITE}/lessons/languages.json "{${languages_body}}\n")
foreach(path IN LISTS SHELL_FILES)
  file(COPY ${path} DESTINATION ${SITE})
endforeach()

# The front matter of the lesson at `path` (`key: value` lines between the opening and closing
# `---`): sets id, title, level, summary and order in the caller ("" when absent; id: the file's
# name then).
function(read_front_matter path)
  file(STRINGS ${path} lines LIMIT_COUNT 40 ENCODING UTF-8)
  foreach(field id title level summary order)
    set(${field} "")
  endforeach()
  set(in_front FALSE)
  foreach(line IN LISTS lines)
    if(line STREQUAL "---")
      if(in_front)
        break()
      endif()
      set(in_front TRUE)
    elseif(in_front AND line MATCHES "^(id|title|level|summary|order):[ \t]*(.*)$")
      set(${CMAKE_MATCH_1} "${CMAKE_MATCH_2}")
    endif()
  endforeach()
  if(id STREQUAL "")
    get_filename_component(id ${path} NAME_WE)
  endif()
  foreach(field id title level summary order)
    string(REGEX REPLACE "^\"(.*)\"$" "\\1" ${field} "${${field}}")   # a quoted value
    set(${field} "${${field}}" PARENT_SCOPE)
  endforeach()
endfunction()

# Copies lesson files into `dir` and writes `dir`/index.json from their front matter.
function(copy_lessons_with_index dir paths)
  file(MAKE_DIRECTORY ${dir})
  set(entries "")
  foreach(path IN LISTS paths)
    file(COPY ${path} DESTINATION ${dir})
    read_front_matter(${path})
    get_filename_component(file ${path} NAME)
    foreach(field id title level summary)   # JSON string escapes
      string(REPLACE "\\" "\\\\" ${field} "${${field}}")
      string(REPLACE "\"" "\\\"" ${field} "${${field}}")
    endforeach()
    if(NOT order MATCHES "^[1-9][0-9]*$")   # the lesson checker says why; the list puts it last
      set(order 0)
    endif()
    list(APPEND entries "  {\"id\": \"${id}\", \"file\": \"${file}\", \"title\": \"${title}\", \"level\": \"${level}\", \"summary\": \"${summary}\", \"order\": ${order}}")
  endforeach()
  list(JOIN entries ",\n" body)
  file(WRITE ${dir}/index.json "[\n${body}\n]\n")
endfunction()

copy_lessons_with_index(${SITE}/lessons "${LESSONS}")
# Translations, lessons/<lang>/ID.md (docs/translating.md): the same layout one folder down.
string(REPLACE "|" ";" TRANSLATIONS "${TRANSLATIONS}")
set(languages "")
foreach(path IN LISTS TRANSLATIONS)
  get_filename_component(folder ${path} DIRECTORY)
  get_filename_component(lang ${folder} NAME)
  list(APPEND languages ${lang})
  list(APPEND translations_${lang} ${path})
endforeach()
list(REMOVE_DUPLICATES languages)
foreach(lang IN LISTS languages)
  copy_lessons_with_index(${SITE}/lessons/${lang} "${translations_${lang}}")
endforeach()

# The lesson engines (web/CMakeLists.txt), ENGINES="name=kind,kind|...": each name.js/.wasm/.data
# is in SITE already. Their raw sizes go to asset-sizes.json (with the in-page trainer's code and
# training tokens, fetched only when a learner presses Train, web/shell/np-lm-worker.js).
string(REPLACE "|" ";" ENGINES "${ENGINES}")
string(REPLACE "|" ";" MODEL_ENGINES "${MODEL_ENGINES}")
set(engines "")
set(sizes "")
foreach(entry IN LISTS ENGINES)
  string(REGEX MATCH "^([a-z-]+)=(.*)$" matched "${entry}")
  set(engine ${CMAKE_MATCH_1})
  string(REPLACE "," ";" kinds_of_${engine} "${CMAKE_MATCH_2}")
  list(APPEND engines ${engine})
  foreach(ext wasm data)
    file(SIZE ${SITE}/${engine}.${ext} bytes_of_${engine}_${ext})
    list(APPEND sizes "\"${engine}.${ext}\": ${bytes_of_${engine}_${ext}}")
  endforeach()
endforeach()
file(GLOB trainer_files RELATIVE ${SITE} ${SITE}/lm-trainer.wasm ${SITE}/models/*.nptok)
foreach(name IN LISTS trainer_files)
  file(SIZE ${SITE}/${name} bytes)
  list(APPEND sizes "\"${name}\": ${bytes}")
endforeach()
list(JOIN sizes ", " sizes)
file(WRITE ${SITE}/asset-sizes.json "{${sizes}}\n")

# Content-hashed copies of the engines' files (lesson-lm.<16 hex>.js/.wasm): a name that changes
# with the content lets servers cache them for good (web/serve.mjs does). A font package is named
# by its content alone, lesson.<16 hex>.data, so the engines share one file (and a learner's
# cache holds it once) while they package the same fonts. The plain names stay for tools that
# expect them; asset-names.json maps them to the hashed ones, for a page without lesson.html's
# metas (a site assembled by hand), which then loads the engine with every kind.
file(GLOB stale_hashed ${SITE}/lesson*.js ${SITE}/lesson*.wasm ${SITE}/lesson*.data)
list(FILTER stale_hashed INCLUDE REGEX "/lesson(-[a-z]+)?\\.[0-9a-f]+\\.[a-z]+$")
if(stale_hashed)
  file(REMOVE ${stale_hashed})
endif()
set(names "")
foreach(engine IN LISTS engines)
  foreach(ext js wasm data)
    file(SHA256 ${SITE}/${engine}.${ext} hash)
    string(SUBSTRING ${hash} 0 16 short)
    if(ext STREQUAL "data")
      set(hashed lesson.${short}.data)
    else()
      set(hashed ${engine}.${short}.${ext})
    endif()
    set(hashed_${engine}_${ext} ${hashed})
    configure_file(${SITE}/${engine}.${ext} ${SITE}/${hashed} COPYONLY)
    list(APPEND names "\"${engine}.${ext}\": \"${hashed}\"")
  endforeach()
endforeach()
list(JOIN names ", " names)
file(WRITE ${SITE}/asset-names.json "{${names}}\n")

# Each lesson's engine: the smallest (by its wasm) that holds every widget kind the lesson uses,
# in every language (LESSON_KINDS: "PATH=kind,kind" per served text, "PATH=!" for one that failed
# its checks, which gets the engine with every kind so that its page can show the problems).
set(every_engine "")
set(every_kind_count -1)
foreach(engine IN LISTS engines)
  list(LENGTH kinds_of_${engine} count)
  if(count GREATER every_kind_count)
    set(every_engine ${engine})
    set(every_kind_count ${count})
  endif()
endforeach()
set(lesson_ids "")
file(STRINGS ${LESSON_KINDS} kind_lines ENCODING UTF-8)
foreach(line IN LISTS kind_lines)
  string(REGEX MATCH "^(.*)=([^=]*)$" matched "${line}")
  set(path ${CMAKE_MATCH_1})
  set(kinds ${CMAKE_MATCH_2})
  read_front_matter(${path})   # sets id
  list(APPEND lesson_ids ${id})
  if(kinds STREQUAL "!")
    set(failed_${id} TRUE)
  else()
    string(REPLACE "," ";" kinds "${kinds}")
    list(APPEND needs_${id} ${kinds})
  endif()
endforeach()
list(REMOVE_DUPLICATES lesson_ids)
set(lesson_engines "")
foreach(id IN LISTS lesson_ids)
  set(chosen ${every_engine})
  if(NOT failed_${id})
    set(chosen_bytes ${bytes_of_${every_engine}_wasm})
    foreach(engine IN LISTS engines)
      set(holds TRUE)
      foreach(kind IN LISTS needs_${id})
        if(NOT kind IN_LIST kinds_of_${engine})
          set(holds FALSE)
        endif()
      endforeach()
      if(holds AND bytes_of_${engine}_wasm LESS chosen_bytes)
        set(chosen ${engine})
        set(chosen_bytes ${bytes_of_${engine}_wasm})
      endif()
    endforeach()
  endif()
  list(APPEND lesson_engines "${id}=${chosen}")
endforeach()
list(JOIN lesson_engines " " lesson_engines)

# lesson.html names the engines' files itself, in metas its first script (np-engine.js) reads
# to start the downloads of the page's engine while the browser reads the rest of the HTML:
# asking asset-names.json first cost the page's scripts and two round trips before the largest
# download could begin (#33). One meta per engine (its hashed files and their raw sizes, for the
# progress bar), and one that gives each lesson its engine; a lesson not listed there (the author
# server's, a lesson added by hand) loads the engine with every kind.
set(preloads "")
foreach(engine IN LISTS engines)
  string(APPEND preloads "<meta name=\"np-engine\" data-np-engine=\"${engine}\"")
  foreach(ext js wasm data)
    file(SIZE ${SITE}/${engine}.${ext} bytes)
    string(APPEND preloads " data-${ext}=\"${hashed_${engine}_${ext}}\" data-${ext}-bytes=\"${bytes}\"")
  endforeach()
  if(engine IN_LIST MODEL_ENGINES)
    string(APPEND preloads " data-models=\"yes\"")   # it runs language models (np-app.js loads their parts)
  endif()
  string(APPEND preloads ">\n  ")
endforeach()
string(APPEND preloads "<meta name=\"np-engine-lessons\" data-np-every-kind=\"${every_engine}\" content=\"${lesson_engines}\">\n  ")
string(APPEND preloads "<script src=\"np-engine.js\"></script>\n  ")
# The English catalogue too: every page reads it (np-strings.js, under any language's words), and
# the engine's start waits for the page's words, so it was one more round trip after the page's
# scripts ran before the glue could start (#33).
string(APPEND preloads "<link rel=\"preload\" href=\"lessons/strings/en.strings\" as=\"fetch\" crossorigin>\n  ")
# The SHA-256 of each lesson text the build checked with the engine's checks and found sound
# (ship_trained_weights.cmake): the page skips those checks for such a text (np-app.js).
if(CHECKED_DIGESTS AND EXISTS ${CHECKED_DIGESTS})
  file(STRINGS ${CHECKED_DIGESTS} digests REGEX "^[0-9a-f]+$")
  list(JOIN digests " " digests)
  string(APPEND preloads "<meta name=\"np-checked-lessons\" content=\"${digests}\">\n  ")
endif()
file(READ ${SITE}/lesson.html lesson_page)
string(REPLACE "<!-- np:engine-preloads -->\n  " "${preloads}" lesson_page "${lesson_page}")
file(WRITE ${SITE}/lesson.html "${lesson_page}")
