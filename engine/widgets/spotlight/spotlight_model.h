// spotlight_model.h: the attention spotlight's model (no ImGui). One engine run per sentence,
// without a mask (model.h: the context layer needs "it" to see "tired"/"wide" after it); the
// query's weights for one head or the mean over heads (Trace::spotlight), the blend's biggest
// terms, the block's sentences A/B/... and the learner's own.
//
//   commands   setSentence{text}  chooseSentence{index}  setQuery{query: word|index}
//              setHead{head: -1 mean|0..}  explain{token: word|index}
//   state()    {kind, sentence, sentences, sentence_index, sentence_choice, custom, tokens, seeded,
//               query, query_index, head, heads, mask: "none", weights, top{token, index, weight},
//               blend[{token, weight(, count)}], vector, summary, table, error?, input_error?}
//   snapshot   {"s": sentence, "q": query index, "h": head}
#pragma once
#include "engine/widgets/spotlight/spotlight_settings.h"
#include "engine/widgets/trace_model.h"

namespace neuralpath::widgets {

class SpotlightModel : public TraceModel<SpotlightSettings> {
 public:
  static constexpr const char* kKind = "spotlight";
  static constexpr int kMaxTokens = 48;  // the trace keeps per-cell terms up to here; the checker's figure too

  struct BlendTerm {
    int token = -1;    // -1: "others", the remaining tokens together
    float weight = 0;  // the engine's weight (for "others": the remaining weights summed)
    int count = 1;
  };

  struct ChooseSentence {
    int index = 0;
  };
  struct SetQuery {
    std::variant<int, std::string> token;
  };  // an index or a word of the sentence
  struct Explain {
    std::variant<int, std::string> token;
  };
  using Command = std::variant<SetSentence, ChooseSentence, SetQuery, SetHead, Explain>;
  NEURALPATH_WIDGET_MODEL_MEMBERS;

  SpotlightModel(const SpotlightSettings& settings, const lesson::Inline& caption, const ModelSpec& spec);

  TextTable table() const;

  // For the view (trace(), weights() ... valid when has_trace()).
  // What the sentence box shows: the sentence on screen, or after a refusal the refused text, so
  // the box and the message under it speak of the same sentence (a command's too, not only typing).
  const std::string& field() const { return input_error_.empty() ? sentence() : refused_; }
  const std::vector<std::string>& sentences() const { return sentences_; }
  const std::vector<std::string>& labels() const { return labels_; }  // "A · tired", "B · wide", "Yours"
  int sentence_index() const { return sentence_; }
  const std::string& sentence() const { return sentences_[static_cast<std::size_t>(sentence_)]; }
  bool custom() const { return has_custom_ && sentence_ + 1 == static_cast<int>(sentences_.size()); }
  int query() const { return query_; }
  int head() const { return head_; }
  int top() const { return top_; }
  int heaviest() const { return heaviest_; }  // the largest weight of all, the query's own included
  const Vector& weights() const { return weights_; }
  const std::vector<BlendTerm>& blend() const { return blend_; }
  // The lesson's query word ("it") and whether the shown sentence has it: a sentence without it
  // is queried at another word, which the view names (#15).
  std::string query_word() const { return settings_.query.empty() ? std::string("it") : settings_.query; }
  bool has_query_word() const;

  Explanation explain_weight(int token) const;
  Explanation explain_others() const;
  Explanation explain_entry(int column) const;

 private:
  std::optional<std::string> show(const std::string& text);  // runs the engine on `text`
  std::optional<std::string> set_sentence(const std::string& text);
  void choose_sentence(int index);
  void refresh();  // weights and blend of query/head
  int find_token(const std::string& key) const;
  int token_of(const std::variant<int, std::string>& token) const;
  int default_query(const std::string& key) const;

  std::vector<std::string> sentences_;  // the block's sentence, its alternatives, then the learner's
  std::vector<std::string> labels_;
  bool has_custom_ = false;
  int sentence_ = 0;
  std::string query_key_;  // the block's query as a token key ("it")
  std::string refused_;    // that sentence (meaningful while input_error_ is set)
  int query_ = 0;
  int head_ = -1;   // -1: the mean over heads (model_spec.h), else one head
  Vector weights_;  // trace_->spotlight(query_, head_)
  std::vector<BlendTerm> blend_;
  int top_ = -1;  // the heaviest token other than the query itself
  int heaviest_ = -1;
};

}  // namespace neuralpath::widgets
