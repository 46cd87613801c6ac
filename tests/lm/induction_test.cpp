// induction_test.cpp: the claim the lessons rest on, checked on real text: trained only to
// predict the next token, the tiny config grows an induction head in its second layer, after a
// stretch of training without one, and copying a repeated random sequence gets far cheaper once
// it has. Labelled `slow` (2,500 steps: about 15 s of CPU time on one core).
//
// What the tiny config shows on the way (docs/language-model.md): the best induction score is
// 0.05 at the start, rises to 0.13-0.18 between steps 100 and 600 (a head that looks at the
// earlier copy of the same token spills some weight onto its neighbour), then climbs through 0.5
// near step 1,050 and settles above 0.7.
#include "engine/core/lm/trainer.h"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

using namespace neuralpath::lm;

TEST_SUITE("slow") {
  TEST_CASE("the tiny config trained on the English corpus grows an induction head (a phase change)" *
            doctest::skip(std::string(NEURALPATH_CORPUS_EN).empty())) {
    const LmConfig& c = *find_config("tiny");
    const Corpus corpus = read_corpus(NEURALPATH_CORPUS_EN);
    BpeTokenizer t = BpeTokenizer::train(corpus.training_text(), c.vocab_size);
    TokenStreams s = tokenize_corpus(corpus, t);
    LmTrainer trainer(initial_model(c, std::move(t), 1), std::move(s), {1, 1, 2500});
    const HeadReport start = trainer.head_scores();
    float early = 1.0f;  // the score 50 steps in
    int crossed = -1;
    while (trainer.steps_done() < trainer.total_steps()) {
      trainer.step();
      if (trainer.steps_done() % 50 != 0) continue;
      const float best = trainer.head_scores().best_induction().induction;
      if (trainer.steps_done() == 50) early = best;
      if (crossed < 0 && best >= 0.5f) crossed = trainer.steps_done();
    }
    const HeadReport end = trainer.head_scores();
    MESSAGE("induction " << start.best_induction().induction << " at start, " << end.best_induction().induction
                         << " at the end, crossed 0.5 at step " << crossed << "; previous-token "
                         << end.best_previous_token().previous_token << "; copy loss " << end.first_copy_loss << " -> "
                         << end.second_copy_loss);
    CHECK(start.best_induction().induction < 0.1f);
    CHECK(early < 0.1f);   // trained, and no induction head yet
    CHECK(crossed > 500);  // it comes later, all at once
    CHECK(end.best_induction().induction >= 0.5f);
    CHECK(end.second_copy_loss <= 0.4f * end.first_copy_loss);
    CHECK(end.best_previous_token().previous_token > 0.2f);  // the layer-0 head it composes with
    CHECK(end.best_induction().layer == 1);                  // induction needs the layer before it
  }

}  // TEST_SUITE("slow")
