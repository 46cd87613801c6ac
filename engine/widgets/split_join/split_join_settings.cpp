// split_join_settings.cpp: a ```split-join block's keys -> SplitJoinSettings, and the stage
// names. Part of the widget library; reads its keys with the
// lesson parser's Fields (parse_context.h).
#include "engine/lesson/parse_context.h"
#include "engine/widgets/split_join/split_join_model.h"
#include "engine/widgets/split_join/split_join_settings.h"

namespace neuralpath::widgets {

const char* split_stage_name(SplitStage stage) {
  switch (stage) {
    case SplitStage::cut: return "cut";
    case SplitStage::slice: return "slice";
    case SplitStage::scores: return "scores";
    case SplitStage::scale: return "scale";
    case SplitStage::softmax: return "softmax";
    case SplitStage::mix: return "mix";
    case SplitStage::concat: return "concat";
    case SplitStage::output: return "output";
  }
  return "";
}

std::optional<SplitStage> parse_split_stage(std::string_view name) {
  for (SplitStage s : all_split_stages())
    if (name == split_stage_name(s)) return s;
  return std::nullopt;
}

const std::vector<SplitStage>& all_split_stages() {
  static const std::vector<SplitStage> all = {SplitStage::cut,    SplitStage::slice,   SplitStage::scores,
                                              SplitStage::scale,  SplitStage::softmax, SplitStage::mix,
                                              SplitStage::concat, SplitStage::output};
  return all;
}

void SplitJoinSettings::read(lesson::detail::WidgetFields& w) {
  query = w.fields.text("query", false).value_or("");
  sentence = w.sentence(SplitJoinModel::kMaxTokens, query);
  causal = w.causal_mask();
}

}  // namespace neuralpath::widgets
