// head_view_model.h: the head view's model (no ImGui). One engine run of the block's sentence (or
// the learner's); every head's weights of the shown layer side by side, as BertViz's head view
// draws them: lines from each word to the words it looks at, one colour per head. Which heads
// are shown and which word's lines are drawn are the learner's choices.
//
//   commands   setSentence{text}  toggleHead{head}  showHeads{heads: [..] | "all"}
//              focus{token: word|index|-1 (every word)}  explain{head, row, col}
//   state()    {kind, sentence, tokens, heads, shown[bool], focus, focus_word|null, mask,
//               weights[[[..]]] (head, row, col), top[{head, token, index, weight}] (the focus
//               word's heaviest key per shown head, itself excluded), summary, table,
//               error?, input_error?}
//   snapshot   {"s": sentence, "shown": [bool], "f": focus}
#pragma once
#include "engine/lesson/limits.h"
#include "engine/widgets/trace_model.h"
#include "engine/widgets/head_view/head_view_settings.h"

namespace neuralpath::widgets {

class HeadViewModel : public TraceModel<HeadViewSettings> {
 public:
  static constexpr const char* kKind = "head-view";
  static constexpr int kMaxTokens = kGridMaxTokens;

  struct Top {
    int head = 0;
    int index = -1;  // the key token, -1 when the row has no other token
    float weight = 0;
  };

  struct ToggleHead {
    int head = 0;
  };
  struct ShowHeads {
    std::vector<bool> shown;  // empty: every head
  };
  struct Focus {
    std::variant<int, std::string> token;  // an index (-1: every word) or a word of the sentence
  };
  struct Explain {
    int head = 0, row = 0, col = 0;
  };
  using Command = std::variant<SetSentence, ToggleHead, ShowHeads, Focus, Explain>;
  NEURALPATH_WIDGET_MODEL_MEMBERS;

  HeadViewModel(const HeadViewSettings& settings, const lesson::Inline& caption, const ModelSpec& spec);

  TextTable table() const;

  // For the view (valid when has_trace()).
  const std::string& sentence() const { return sentence_; }
  int heads() const { return has_trace() ? trace_->heads : 0; }
  bool shown(int head) const {
    return head >= 0 && head < static_cast<int>(shown_.size()) && shown_[static_cast<std::size_t>(head)];
  }
  int focus() const { return focus_; }
  const Matrix& weights(int head) const { return weights_[static_cast<std::size_t>(head)]; }
  std::vector<Top> top() const;  // for the focus word, per shown head (empty when focus is -1)

  Explanation explain_cell(int head, int row, int col) const;

 private:
  std::optional<std::string> run(const std::string& sentence);
  int token_of(const std::variant<int, std::string>& token) const;  // -2 when not found

  std::string sentence_;
  std::vector<Matrix> weights_;  // per head [T][T], the softmax step's result
  std::vector<bool> shown_;
  int focus_ = -1;
};

}  // namespace neuralpath::widgets
