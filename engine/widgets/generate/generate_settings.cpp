// generate_settings.cpp: a ```generate block's keys -> GenerateSettings (parse_context.h's Fields).
#include "engine/widgets/generate/generate_settings.h"

#include "engine/lesson/parse_context.h"
#include "engine/widgets/language_models.h"

namespace neuralpath::widgets {

using lesson::SettingsNode;

void GenerateSettings::read(lesson::detail::WidgetFields& w) {
  model = read_model_name(w);
  prompt = read_prompt(w);
  tokens = static_cast<int>(w.fields.integer("tokens", 40, 1, 200).value_or(40));
  temperature = read_real(w, "temperature", 0.8f, 0.0f, 2.0f);
  top_k = static_cast<int>(w.fields.integer("top-k", 40, 0, 2048).value_or(40));
  top_p = read_real(w, "top-p", 1.0f, 0.05f, 1.0f);
  seed = static_cast<std::uint64_t>(w.fields.integer("seed", 1, 0, 1000000).value_or(1));
  candidates = static_cast<int>(w.fields.integer("candidates", 8, 3, 20).value_or(8));
  if (const SettingsNode* list = w.fields.list("controls", false)) {
    for (const auto& item : list->items) {
      const std::string name = item.kind == SettingsNode::Kind::Text ? item.text.text() : "";
      if (name == "temperature")
        temperature_control = true;
      else if (name == "top-k")
        top_k_control = true;
      else if (name == "top-p")
        top_p_control = true;
      else if (name == "seed")
        seed_control = true;
      else
        w.ctx.error(item.origin, "a control is one of temperature, top-k, top-p, seed");
    }
  }
}

}  // namespace neuralpath::widgets
