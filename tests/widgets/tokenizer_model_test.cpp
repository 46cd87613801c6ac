// tokenizer_model_test.cpp: the tokenizer view's model alone (no ImGui): its tokens are the BPE
// tokenizer's own (they join back into the text, ids as encode() gives them), fewer merges cut
// finer down to bytes, and a token explains the merge that made it.
#include "model_support.h"

#include "engine/core/lm/bpe.h"
#include "engine/widgets/tokenizer/tokenizer_model.h"

#include <doctest/doctest.h>

using namespace model_test;  // the engine's names, json and the helpers (model_support.h)
using Outcome = CommandResult::Outcome;

namespace {

TokenizerSettings example() {
  TokenizerSettings s;
  s.text = "unbelievable and undeniable";
  s.learn = {"believable breakable deniable able table", "unable undo untie unbelievable"};
  s.merges = 30;
  return s;
}

std::string joined(const json& tokens) {
  std::string out;
  for (const json& t : tokens) out += t["text"].get<std::string>();
  return out;
}

}  // namespace

TEST_CASE("tokenizer: the tokens are the BPE tokenizer's own and join back into the text") {
  const TokenizerSettings s = example();
  TokenizerModel model(s, {});
  const json state = model.state();
  CHECK(state["kind"] == "tokenizer");
  CHECK(joined(state["tokens"]) == s.text);
  // The same merges, learned here from the same lines, cut the text into the same ids.
  const lm::BpeTokenizer reference = lm::BpeTokenizer::train(
      "believable breakable deniable able table\nunable undo untie unbelievable\n", lm::kFirstMerge + 30);
  const std::vector<int> ids = reference.encode(s.text);
  REQUIRE(state["tokens"].size() == ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i) CHECK(state["tokens"][i]["id"] == ids[i]);
  CHECK(state["learned"] == static_cast<int>(reference.merges().size()));
  CHECK(state["merges"] == state["learned"]);
  CHECK(state["tokens"].size() < s.text.size());  // the merges joined bytes into longer tokens
}

TEST_CASE("tokenizer: with no merges every token is one byte; each merge shown never adds a token") {
  TokenizerModel model(example(), {});
  REQUIRE(send(model, {{"type", "setMerges"}, {"merges", 0}}).done());
  json state = model.state();
  CHECK(state["tokens"].size() == example().text.size());
  for (const json& t : state["tokens"]) CHECK(t["id"].get<int>() < lm::kByteTokens);
  std::size_t previous = state["tokens"].size();
  for (int n = 1; n <= model.learned(); ++n) {
    REQUIRE(send(model, {{"type", "setMerges"}, {"merges", n}}).done());
    state = model.state();
    CHECK(state["tokens"].size() <= previous);
    CHECK(joined(state["tokens"]) == example().text);
    previous = state["tokens"].size();
  }
}

TEST_CASE("tokenizer: refusals change nothing and say why") {
  TokenizerModel model(example(), {});
  const json before = model.state();
  CHECK(send(model, {{"type", "setMerges"}, {"merges", model.learned() + 1}}).outcome() == Outcome::refused);
  CHECK(send(model, {{"type", "setMerges"}}).outcome() == Outcome::refused);
  CHECK(send(model, {{"type", "setSentence"}, {"text", ""}}).outcome() == Outcome::refused);
  CHECK(
      send(model, {{"type", "setSentence"}, {"text", std::string(TokenizerModel::kMaxTextBytes + 1, 'a')}}).outcome() ==
      Outcome::refused);
  CHECK(send(model, {{"type", "explain"}, {"token", 999}}).outcome() == Outcome::refused);
  CHECK(send(model, {{"type", "fly"}}).outcome() == Outcome::not_taken);
  json after = model.state();
  CHECK(after["tokens"] == before["tokens"]);
  CHECK(after["merges"] == before["merges"]);
  CHECK(after.contains("input_error"));  // the refused text's message, under the field
}

TEST_CASE("tokenizer: a merged token explains which two tokens it joined") {
  TokenizerModel model(example(), {});
  const json tokens = model.state()["tokens"];
  int merged = -1;
  for (std::size_t i = 0; i < tokens.size() && merged < 0; ++i)
    if (tokens[i]["id"].get<int>() >= lm::kFirstMerge) merged = static_cast<int>(i);
  REQUIRE(merged >= 0);
  REQUIRE(send(model, {{"type", "explain"}, {"token", merged}}).done());
  const std::optional<Explanation> e = model.take_explanation();
  REQUIRE(e.has_value());
  CHECK(e->inputs.size() == 2);
  // The two parts' texts make the token's text.
  const std::string token = tokens[static_cast<std::size_t>(merged)]["text"].get<std::string>();
  CHECK(e->formula.find(std::to_string(tokens[static_cast<std::size_t>(merged)]["id"].get<int>())) == 0);
  CHECK(!model.take_explanation().has_value());  // taken once
  (void)token;
}

TEST_CASE("tokenizer: a snapshot reopens the text and the merges shown") {
  TokenizerModel first(example(), {});
  REQUIRE(send(first, {{"type", "setSentence"}, {"text", "untie the table"}}).done());
  REQUIRE(send(first, {{"type", "setMerges"}, {"merges", 5}}).done());
  TokenizerModel second(example(), {});
  REQUIRE(second.restore(first.snapshot()).done());
  CHECK(second.state() == first.state());
  CHECK(second.restore(json::array()).outcome() == Outcome::refused);
}
