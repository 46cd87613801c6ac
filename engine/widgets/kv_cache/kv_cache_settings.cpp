// kv_cache_settings.cpp: a ```kv-cache block's keys -> KvCacheSettings (parse_context.h's Fields).
#include "engine/widgets/kv_cache/kv_cache_settings.h"

#include "engine/lesson/parse_context.h"
#include "engine/widgets/language_models.h"

namespace neuralpath::widgets {

void KvCacheSettings::read(lesson::detail::WidgetFields& w) {
  model = read_model_name(w);
  prompt = read_prompt(w);
  tokens = w.fields.integer("tokens", 64, 1, 1000000).value_or(64);
  rounds = static_cast<int>(w.fields.integer("rounds", 3, 1, 20).value_or(3));
  if (const auto part = w.fields.text("part", false)) {
    if (*part == "memory")
      show_race = false;
    else if (*part == "race")
      show_memory = false;
    else if (*part != "all")
      w.ctx.error(w.fields.key_origin("part"), "part is memory, race or all");
  }
}

}  // namespace neuralpath::widgets
