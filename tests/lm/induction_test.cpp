// induction_test.cpp: the claim the lessons rest on, checked on real text: trained only to
// predict the next token, the tiny config grows a previous-token head and an induction head,
// and copying a repeated random sequence gets far cheaper once it has. Labelled `slow` (about
// 10 s of training on one core).
#include "engine/core/lm/trainer.h"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

using namespace neuralpath::lm;

TEST_SUITE("slow") {

TEST_CASE("the tiny config, trained on the English corpus, grows an induction head (a phase change)" *
          doctest::skip(std::string(NEURALPATH_CORPUS_EN).empty())) {
    const LmConfig& c = *find_config("tiny");
    const Corpus corpus = read_corpus(NEURALPATH_CORPUS_EN);
    BpeTokenizer t = BpeTokenizer::train(corpus.training_text(), c.vocab_size);
    TokenStreams s = tokenize_corpus(corpus, t);
    LmTrainer trainer(initial_model(c, std::move(t), 1), std::move(s), {1, 1, 0});
    const HeadReport start = trainer.head_scores();
    float before_crossing = 1.0f;  // the induction score at the last check below 0.5
    int crossed = -1;
    while (trainer.steps_done() < trainer.total_steps()) {
        trainer.step();
        if (trainer.steps_done() % 100 != 0) continue;
        const HeadReport r = trainer.head_scores();
        const float best = r.best_induction().induction;
        if (crossed < 0 && best >= 0.5f) crossed = trainer.steps_done();
        if (crossed < 0 && trainer.steps_done() <= 300) before_crossing = std::min(before_crossing, best);
    }
    const HeadReport end = trainer.head_scores();
    MESSAGE("induction " << start.best_induction().induction << " at start, " << end.best_induction().induction
                         << " at the end, crossed 0.5 at step " << crossed << "; previous-token "
                         << end.best_previous_token().previous_token << "; copy loss " << end.first_copy_loss
                         << " -> " << end.second_copy_loss);
    CHECK(start.best_induction().induction < 0.1f);
    CHECK(before_crossing < 0.1f);            // a while into training, still no induction head
    CHECK(crossed > 300);
    CHECK(end.best_induction().induction >= 0.5f);
    CHECK(end.second_copy_loss <= 0.4f * end.first_copy_loss);
    CHECK(end.best_previous_token().previous_token > 0.3f);  // the head it composes with
    CHECK(end.best_induction().layer == 1);   // induction needs the layer before it
}

}  // TEST_SUITE("slow")
