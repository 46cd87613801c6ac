// writer.cpp: the generation loop, one token per step() (writer.h).
#include "engine/core/lm/decode/writer.h"

#include "engine/core/error.h"

#include <algorithm>
#include <cmath>

namespace neuralpath::lm {

TextWriter::TextWriter(const LmModel& model, std::string_view prompt, const WriterOptions& o)
    : model_(model), options_(o), rng_{o.seed} {
  if (o.tokens < 0 || o.tokens > 4096) throw InputError("--tokens must be 0 to 4096");
  validate_sampling(o.sampling);
  if (prompt.size() > 65536) throw InputError("the prompt is longer than 65,536 bytes");
  // healing (sampling.h): "The " is encoded as "The", and the first token must start with a space
  heal_ = prompt.size() > 1 && prompt.back() == ' ' && prompt[prompt.size() - 2] != ' ';
  const std::string_view encoded_part = heal_ ? prompt.substr(0, prompt.size() - 1) : prompt;
  ids_.push_back(kDocumentToken);
  const std::vector<int> encoded = model.tokenizer.encode(encoded_part);
  ids_.insert(ids_.end(), encoded.begin(), encoded.end());
  prompt_tokens_ = static_cast<int>(encoded.size());
  text_ = std::string(encoded_part);
  if (o.use_cache) decoder_ = std::make_unique<KvDecoder>(model);
  if (heal_ && o.tokens == 0) text_ += ' ';  // nothing will be written
}

std::vector<float> TextWriter::next_probabilities(bool& prefilled) {
  const std::size_t context = static_cast<std::size_t>(model_.config.context);
  prefilled = false;
  if (!decoder_) return next_token_probabilities(model_, ids_);  // the full forward, every step
  if (decoder_->length() + 1 == static_cast<int>(ids_.size()) && ids_.size() <= context)
    return probabilities_from_logits(decoder_->step(ids_.back()));  // one cached step
  // the first step, or the window has moved: read the last `context` tokens at once
  prefilled = true;
  const std::size_t T = std::min(ids_.size(), context);
  const std::vector<int> window(ids_.end() - static_cast<std::ptrdiff_t>(T), ids_.end());
  return probabilities_from_logits(decoder_->prefill(window));
}

void TextWriter::restage() {
  pending_.stages = sampling_stages(probabilities_, options_.sampling);
  if (pending_.healed) {  // show the model's stage renormalised
    double sum = 0.0;
    for (float x : pending_.stages.model) sum += x;
    if (sum > 0.0)
      for (float& x : pending_.stages.model) x = static_cast<float>(x / sum);
  }
}

const WriterStep& TextWriter::upcoming() {
  if (has_pending_) return pending_;
  if (finished()) throw InputError("the text is finished");
  pending_ = WriterStep{};
  pending_.position = static_cast<int>(ids_.size());
  probabilities_ = next_probabilities(pending_.prefilled);
  if (heal_ && written_ == 0) {  // only tokens that start with ' '
    pending_.healed = true;
    for (std::size_t k = 0; k < probabilities_.size(); ++k)
      if (model_.tokenizer.token_bytes(static_cast<int>(k)).rfind(' ', 0) != 0) probabilities_[k] = 0.0f;
  }
  restage();
  has_pending_ = true;
  return pending_;
}

void TextWriter::set_sampling(const SamplingSettings& settings) {
  validate_sampling(settings);
  options_.sampling = settings;
  if (has_pending_) restage();
}

bool TextWriter::step() {
  if (finished()) return false;
  WriterStep s = upcoming();
  has_pending_ = false;
  s.u = unit_interval(rng_.next());
  s.token = draw_token(s.stages.top_p, s.u);
  if (s.token == kDocumentToken) {
    ended_ = true;
    if (heal_ && written_ == 0) text_ += ' ';  // nothing written: the prompt as given
  } else {
    ids_.push_back(s.token);
    written_ids_.push_back(s.token);
    text_ += model_.tokenizer.token_bytes(s.token);
    ++written_;
  }
  last_ = std::move(s);
  has_step_ = true;
  return true;
}

}  // namespace neuralpath::lm
