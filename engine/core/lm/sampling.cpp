// sampling.cpp: temperature, top-k and drawing (sampling.h).
#include "engine/core/lm/sampling.h"

#include "engine/core/error.h"
#include "engine/core/lm/corpus.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace neuralpath::lm {

std::vector<float> reshape_distribution(std::vector<float> p, float temperature, int top_k) {
  const std::size_t V = p.size();
  if (temperature == 0.0f) {  // greedy: all on the argmax
    const std::size_t best = static_cast<std::size_t>(std::max_element(p.begin(), p.end()) - p.begin());
    std::fill(p.begin(), p.end(), 0.0f);
    p[best] = 1.0f;
    return p;
  }
  // p_i^(1/τ) / Σ is softmax(logits/τ): the same as dividing the logits by τ
  double sum = 0.0;
  for (float& x : p) sum += (x = static_cast<float>(std::pow(static_cast<double>(x), 1.0 / temperature)));
  if (top_k > 0 && static_cast<std::size_t>(top_k) < V) {  // keep the k largest
    std::vector<std::size_t> order(V);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return p[a] > p[b]; });
    for (std::size_t i = static_cast<std::size_t>(top_k); i < V; ++i) p[order[i]] = 0.0f;
    sum = 0.0;
    for (float x : p) sum += x;
  }
  if (!(sum > 0.0)) return reshape_distribution(std::move(p), 0.0f, 0);  // every p underflowed: greedy
  for (float& x : p) x = static_cast<float>(x / sum);
  return p;
}

Generation generate(const LmModel& m, std::string_view prompt, const SampleOptions& o) {
  if (o.tokens < 0 || o.tokens > 4096) throw InputError("--tokens must be 0 to 4096");
  if (!(o.temperature >= 0.0f) || !std::isfinite(o.temperature) || o.temperature > 100.0f)
    throw InputError("--temperature must be a number from 0 to 100");
  if (o.top_k < 0) throw InputError("--top-k must be 0 (all) or more");
  // A prompt that ends in a space ("The "): the tokenizer joins a space to the word after it,
  // so the text it learned from almost never has a lone space token there, and a model given
  // one writes the next word glued on ("The entence"). Instead the space is left out of the
  // encoding and the first token drawn must be one that starts with a space (token healing).
  const bool heal = prompt.size() > 1 && prompt.back() == ' ' && prompt[prompt.size() - 2] != ' ';
  std::vector<int> ids{kDocumentToken};
  const std::vector<int> encoded = m.tokenizer.encode(heal ? prompt.substr(0, prompt.size() - 1) : prompt);
  ids.insert(ids.end(), encoded.begin(), encoded.end());
  Generation g;
  g.text = std::string(heal ? prompt.substr(0, prompt.size() - 1) : prompt);
  SplitMix64 rng{o.seed};
  for (int i = 0; i < o.tokens; ++i) {
    std::vector<float> next = next_token_probabilities(m, ids);
    if (heal && i == 0)
      for (std::size_t k = 0; k < next.size(); ++k)
        if (m.tokenizer.token_bytes(static_cast<int>(k)).rfind(' ', 0) != 0) next[k] = 0.0f;  // must start with ' '
    const std::vector<float> p = reshape_distribution(std::move(next), o.temperature, o.top_k);
    const double u = static_cast<double>(rng.next() >> 11) * 0x1.0p-53;  // uniform [0, 1)
    double acc = 0.0;
    int pick = static_cast<int>(std::max_element(p.begin(), p.end()) - p.begin());  // (rounding fallback)
    for (std::size_t k = 0; k < p.size(); ++k) {                                    // inverse CDF
      if (p[k] <= 0.0f) continue;
      acc += p[k];
      if (u < acc) {
        pick = static_cast<int>(k);
        break;
      }
    }
    if (pick == kDocumentToken) {
      g.ended = true;
      break;
    }
    ids.push_back(pick);
    g.tokens.push_back(pick);
    g.text += m.tokenizer.token_bytes(pick);
  }
  if (heal && g.tokens.empty()) g.text += ' ';  // nothing written: the prompt as given
  return g;
}

}  // namespace neuralpath::lm
