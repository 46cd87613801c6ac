// tokenizer_model.h: the tokenizer view's model (no ImGui). A byte-level BPE tokenizer
// (engine/core/lm/bpe.h, the language model's own) learns its merges from the block's lines; the
// text is cut into tokens by the first `shown` merges, so the learner watches words join into
// tokens one merge at a time. Every id and every piece is the tokenizer's.
//
//   commands   setSentence{text}  setMerges{merges: 0..learned}  explain{token: index}
//   state()    {kind, text, tokens[{text, id}], merges, learned, vocab_size, bytes, summary,
//               table, input_error?}
//   snapshot   {"s": text, "m": merges shown}
#pragma once
#include "engine/core/lm/bpe.h"
#include "engine/widgets/readout.h"
#include "engine/widgets/tokenizer/tokenizer_settings.h"
#include "engine/widgets/widget_model.h"

namespace neuralpath::widgets {

class TokenizerModel : public WidgetModelBase<TokenizerSettings> {
 public:
  static constexpr const char* kKind = "tokenizer";
  static constexpr std::size_t kMaxTextBytes = 2000;  // more would not fit the card as chips

  struct SetMerges {
    int merges = 0;
  };
  struct Explain {
    int token = 0;
  };
  using Command = std::variant<SetSentence, SetMerges, Explain>;
  NEURALPATH_WIDGET_MODEL_MEMBERS;

  TokenizerModel(const TokenizerSettings& settings, const lesson::Inline& caption);

  TextTable table() const;

  // For the view.
  struct Token {
    std::string text;  // the bytes it stands for (a piece of a UTF-8 character shows as its bytes)
    int id = 0;
  };
  const std::vector<Token>& tokens() const { return tokens_; }
  const std::string& text() const { return text_; }
  int merges() const { return shown_; }
  int learned() const { return static_cast<int>(learned_.merges().size()); }
  Explanation explain_token(int index) const;

 private:
  void cut();  // tokens_ of text_ with the first shown_ merges

  lm::BpeTokenizer learned_;  // every merge the lines taught
  lm::BpeTokenizer shown_tokenizer_;
  int shown_ = 0;
  std::string text_;
  std::vector<Token> tokens_;
};

}  // namespace neuralpath::widgets
