// split_join_model.h: the split-and-join step-through's model (no ImGui). One engine run of the
// sentence gives the Trace; each stage shows one of its matrices: Q (K, V) with its columns cut
// into heads, one head's slices of Q, K and V, that head's scores, scaled scores (÷ √d_head),
// weights and output, the heads joined, and the output after W_O. The model names what each
// stage lights (lit_columns, the head) in one narrated sentence, and explains any cell from the
// trace's recorded terms.
//
//   commands   setSentence{text}  stage{stage: name|index}  next  back  setHead{head}
//              setRole{role: q|k|v}  selectCell{row, col} (opens the cell's explanation)
//              mistake{on: bool}  the lesson's common mistake at the scale and softmax stages:
//                                 the head's scores ÷ √d_model instead of √d_head (head_mistakes.h)
//              numbers{short: bool}  the grid prints one decimal fewer (the view sends it when
//                                 the full numbers do not fit, on a phone): the narration follows
//   state()    {kind, stages, stage, stage_index, sentence, tokens, heads, head, d_model, d_head,
//               scale{d_head, d_model, factor, root}, role, matrix, columns, column_heads,
//               lit_columns, row_sums (softmax), query, short_numbers, narration, selected, mistake{on, width,
//               root, factor, right, wrong}, summary, table, error?}
//   snapshot   {"s": sentence, "st": stage index, "h": head, "r": role, "m": mistake on}
#pragma once
#include "engine/lesson/limits.h"
#include "engine/core/head_mistakes.h"
#include "engine/widgets/split_join/split_join_settings.h"
#include "engine/widgets/step_through.h"

namespace neuralpath::widgets {

class SplitJoinModel : public StepThroughModel<SplitJoinSettings> {
 public:
  static constexpr const char* kKind = "split-join";
  static constexpr int kMaxTokens =
      12;  // a T × d_model grid of numbers, on a phone; the checker's figure too (read() hands it over)

  enum class Role { q, k, v };
  static constexpr EnumNames<Role, 3> kRoles{{{{Role::q, "q"}, {Role::k, "k"}, {Role::v, "v"}}}};
  static const char* role_name(Role role) { return kRoles.name(role); }

  struct Move {
    int by = 1;
  };  // next (+1), back (−1)
  struct SetRole {
    Role role = Role::q;
  };
  struct SetMistake {
    bool on = false;
  };
  struct SetShortNumbers {
    bool on = false;
  };
  using SetStage = widgets::SetStage<SplitStage>;
  using Command = std::variant<SetSentence, SetStage, Move, SetHead, SetRole, SelectCell, SetMistake, SetShortNumbers>;
  NEURALPATH_WIDGET_MODEL_MEMBERS;

  SplitJoinModel(const SplitJoinSettings& settings, const lesson::Inline& caption, const ModelSpec& spec);

  TextTable table() const;

  // What the current stage shows: a matrix copied from the trace (a copy, so the model can be
  // moved), its column labels, the head that owns each column (-1 for a token × token grid) and
  // which columns are lit.
  struct Shown {
    Matrix values;
    std::vector<std::string> columns;
    std::vector<int> column_head;
    std::vector<bool> lit;
    bool weights = false;  // a softmax grid: 0..1, rows add up to 1
  };

  // For the view (valid when has_trace()).
  SplitStage stage() const { return kSplitStages.at(static_cast<std::size_t>(stage_)); }
  bool per_head() const;       // the stages that show one head (slice .. mix)
  bool mistake_stage() const;  // scale and softmax: where the mistake can be switched on
  bool mistake() const { return mistake_ && mistake_stage(); }  // showing the mistake now
  Role role() const { return role_; }
  const Shown& shown() const { return shown_; }
  std::pair<float, float> shown_range() const;  // finite min and max of the shown matrix (colours)
  std::string narration() const;                // the stage in one sentence: what is lit
  // A number or a weight as the grid prints it now, "1.90" / "41.2%" or, with short numbers,
  // "1.9" / "41%": the one rule for the cells and the narration's numbers, so they never differ.
  static std::string number(float value, bool short_numbers);
  static std::string weight(float fraction, bool short_numbers);
  bool short_numbers() const { return short_numbers_; }
  std::string formula() const;  // the stage's rule, with √d_head written out
  Explanation explain_cell(Cell cell) const;
  Explanation explain_row_sum(int row) const;  // softmax stage

 private:
  std::optional<std::string> run(const std::string& sentence);
  void reshow();  // rebuilds shown_ for the stage, head and role
  const Step* step_for(SplitStage which) const;
  const Step* projection(Role role) const;
  int query_row() const;                   // the row the narration follows
  int heaviest_key(int head) const;        // the key that row weighs most in `head`
  std::string columns_of(int head) const;  // "3–4"

  Role role_ = Role::q;
  bool mistake_ = false;
  bool short_numbers_ = false;
  ScaledByWidth wrong_;  // the current head's scores ÷ √d_model (the mistake), from engine/core
  Shown shown_;
};

}  // namespace neuralpath::widgets
