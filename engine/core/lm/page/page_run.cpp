// page_run.cpp: the training run the page shows, and what it measures (page_run.h).
#include "engine/core/lm/page/page_run.h"

#include "engine/core/error.h"
#include "engine/core/lm/sampling.h"

#include <algorithm>

namespace neuralpath::lm {

namespace {

// The config with the data's vocabulary: a small corpus may have run out of merges before the
// config's size (`lm train` does the same).
LmConfig with_vocabulary(LmConfig config, const PageData& data) {
  if (data.tokenizer.vocab_size() > config.vocab_size)
    throw InputError("the page data's vocabulary (" + std::to_string(data.tokenizer.vocab_size()) +
                     " tokens) is larger than config " + config.name + "'s (" + std::to_string(config.vocab_size) +
                     ")");
  config.vocab_size = data.tokenizer.vocab_size();
  return config;
}

}  // namespace

double bigram_loss_on_validation_windows(const BigramModel& bigram, const std::vector<int>& val, const LmConfig& c) {
  if (val.size() < 2) return 0.0;
  // The same windows as LmTrainer::validation_loss(): val_batches·batch starts evenly spaced,
  // T tokens each; position t of a window predicts val[start + t + 1] from val[start + t].
  const std::size_t T = std::min<std::size_t>(static_cast<std::size_t>(c.context), val.size() - 1);
  const std::size_t windows = static_cast<std::size_t>(c.val_batches) * static_cast<std::size_t>(c.batch);
  const std::size_t room = val.size() - T;
  double sum = 0.0;
  for (std::size_t w = 0; w < windows; ++w) {
    const std::size_t start = w * room / windows;
    for (std::size_t t = 0; t < T; ++t) sum -= std::log(bigram.probability(val[start + t], val[start + t + 1]));
  }
  return sum / static_cast<double>(windows * T);
}

PageRun::PageRun(const LmConfig& config, PageData data, PageRunOptions options)
    : data_(std::move(data)), options_(std::move(options)) {
  if (options_.measure_every < 1 || options_.validate_every < 1 || options_.sample_every < 1)
    throw InputError("measure, validate and sample intervals must be at least 1 step");
  if (options_.validation_batches < 1 || options_.validation_batches > 64)
    throw InputError("validation batches must be 1 to 64");
  LmConfig shapes = with_vocabulary(config, data_);
  shapes.val_batches = options_.validation_batches;
  if (!std::isnan(data_.repeat_fraction)) shapes.repeat_fraction = data_.repeat_fraction;  // the text's own
  LmModel model = initial_model(shapes, data_.tokenizer, options_.seed);
  model.lang = data_.lang;
  model.corpus_hash = data_.corpus_hash;
  TrainerOptions t;
  t.seed = options_.seed;
  t.threads = 1;  // the page's worker has one thread; the CLI replays it the same way
  t.steps = options_.steps;
  trainer_ = std::make_unique<LmTrainer>(std::move(model), data_.streams, t);
  const BigramModel bigram(data_.streams.train, shapes.vocab_size);
  bigram_loss_ = bigram_loss_on_validation_windows(bigram, data_.streams.validation, shapes);
  // Step 0: the untrained model.
  curve_.push_back({0, NAN, trainer_->validation_loss()});
  measure_heads();
  samples_.push_back({0, generate(trainer_->model(), options_.prompt,
                                  {options_.sample_tokens, options_.sample_temperature, 40, options_.sample_seed})
                             .text});
}

PageRun::~PageRun() = default;
PageRun::PageRun(PageRun&&) noexcept = default;

int PageRun::steps_done() const { return trainer_->steps_done(); }
int PageRun::total_steps() const { return trainer_->total_steps(); }
const LmConfig& PageRun::config() const { return trainer_->model().config; }
const LmModel& PageRun::model() const { return trainer_->model(); }

float PageRun::last_val_loss() const {
  for (auto it = curve_.rbegin(); it != curve_.rend(); ++it)
    if (!std::isnan(it->val_loss)) return it->val_loss;
  return NAN;
}

float PageRun::step() {
  if (finished()) throw InputError("the run has taken all of its steps");
  last_loss_ = trainer_->step();
  loss_sum_ += last_loss_;
  ++loss_count_;
  measure_at_step();
  return last_loss_;
}

void PageRun::measure_at_step() {
  const int s = steps_done();
  const bool last = finished();
  if (s % options_.measure_every == 0 || last) {
    LossPoint p;
    p.step = s;
    p.loss = static_cast<float>(loss_sum_ / std::max(1, loss_count_));
    if (s % options_.validate_every == 0 || last) p.val_loss = trainer_->validation_loss();
    curve_.push_back(p);
    loss_sum_ = 0.0;
    loss_count_ = 0;
    measure_heads();
  }
  if (s % options_.sample_every == 0 || last)
    samples_.push_back({s, generate(trainer_->model(), options_.prompt,
                                    {options_.sample_tokens, options_.sample_temperature, 40, options_.sample_seed})
                               .text});
}

void PageRun::measure_heads() {
  const HeadReport r = trainer_->head_scores();
  heads_.push_back({steps_done(), r.heads, r.first_copy_loss, r.second_copy_loss});
  const HeadScore& prev = r.best_previous_token();
  if (!previous_formed_ && prev.previous_token >= kHeadFormed)
    previous_formed_ = Milestone{steps_done(), prev.layer, prev.head, prev.previous_token};
  const HeadScore& ind = r.best_induction();
  if (!induction_formed_ && ind.induction >= kHeadFormed)
    induction_formed_ = Milestone{steps_done(), ind.layer, ind.head, ind.induction};
}

namespace {

AttentionOn attention_on(const LmModel& m, std::vector<int> ids) {
  AttentionOn out;
  const std::size_t T = static_cast<std::size_t>(m.config.context);
  if (ids.size() > T) {
    ids.resize(T);
    out.cut = true;
  }
  Inspection in = inspect(m, ids);
  out.ids = ids;
  for (int id : ids) out.tokens.push_back(id == kDocumentToken ? std::string() : m.tokenizer.token_bytes(id));
  out.weights = std::move(in.weights);
  return out;
}

}  // namespace

AttentionOn PageRun::attention_on_text(const std::string& text) const {
  std::vector<int> ids{kDocumentToken};  // as every training document begins
  const std::vector<int> encoded = model().tokenizer.encode(text);
  ids.insert(ids.end(), encoded.begin(), encoded.end());
  return attention_on(model(), std::move(ids));
}

AttentionOn PageRun::attention_on_probe() const { return attention_on(model(), probe_sequences(config()).front()); }

}  // namespace neuralpath::lm
