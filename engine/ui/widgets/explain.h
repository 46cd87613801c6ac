// explain.h: "explain any number". A widget draws each number through an Explainer; the number
// is then a focusable, clickable item, and a click (or Enter/Space when focused) opens a popup
// saying, in words and with its inputs, how the engine produced it — read from the Trace or
// from narrate(), never recomputed.
//
//   Explainer explain;                                  // one per widget
//   explain.number(ui, "w3", "41.2%", [&] { return Explanation{...}; });   // inline number
//   explain.area(ui, "cell", min, max, make);           // a number the widget drew itself
//   explain.draw_popup(ui);                             // once, at the end of the widget's draw
//   explain.state()                                     // {"open", "title", "text", "inputs"}
//
// The explanation is built only when opened (make() is not called every frame); a model
// builds it (explanation.h: plain data, no ImGui), the Explainer only shows it.
#pragma once
#include "engine/ui/widget.h"
#include "engine/widgets/explanation.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <cfloat>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace neuralpath::ui {

struct NumberStyle {
  ImU32 color = 0;  // 0 = the theme's text colour
  bool bold = false;
  bool mono = false;
  bool small = false;
};

class Explainer {
 public:
  using Make = std::function<Explanation()>;

  // `text` drawn at the cursor as one item (SameLine works after it). True when hovered.
  bool number(const UiContext& ui, const char* id, const std::string& text, const Make& make,
              const NumberStyle& style = {});
  // Makes the rectangle [min, max] (already drawn by the caller) focusable and clickable.
  // Returns true when it is hovered or focused (for highlights).
  bool area(const UiContext& ui, const char* id, ImVec2 min, ImVec2 max, const Make& make);

  void open(Explanation explanation);  // programmatic (commands, tests): centred on screen
  // The popup is a small window beside the number, not a Dear ImGui popup: it belongs to its
  // figure, so it scrolls with the page (#34: a popup left floating over later sections took
  // the next tap, and the BERT switch or a check's answer was lost), and a tap anywhere else
  // closes it and still does what it was for. It closes with its ✕ button, Escape, a press
  // outside it, or once the number it explains has scrolled out of sight.
  // A sheet instead of a popup: a panel across the bottom of the screen that leaves the rest of
  // the page working (a popup takes every tap until it closes, so a learner reading it could
  // not toggle the head view's heads). It closes with its ✕ button or Escape, and by itself once
  // its widget is scrolled out of sight (nothing left above the sheet), so it never stays over
  // another widget's controls.
  void use_sheet(bool sheet) { sheet_ = sheet; }
  void close() { current_.reset(); }
  bool is_open() const { return current_.has_value(); }
  const std::optional<Explanation>& current() const { return current_; }

  // Call once per frame at the end of draw(); `owner_top`/`owner_bottom`: the widget's card, in
  // screen px (a sheet closes when none of it shows above the sheet).
  void draw_popup(const UiContext& ui, float owner_top = -FLT_MAX, float owner_bottom = FLT_MAX);
  // {"open": false} or {"open": true, ..., "sheet" | "popup": [x, y, w, h]} (CSS px, where it was drawn)
  nlohmann::json state() const;
  std::vector<nlohmann::json> take_events();  // {"type": "explain", "text": ...} when opened

 private:
  bool activated();  // clicked, or Enter while focused
  void draw_sheet(const UiContext& ui, float owner_top, float owner_bottom);
  void draw_floating(const UiContext& ui, float owner_top, float owner_bottom);
  void opened_at_item();                            // a click or Enter on the item just drawn: the popup goes beside it
  void draw_body(const UiContext& ui, float wrap);  // title, formula, inputs, text

  std::optional<Explanation> current_;
  bool open_requested_ = false;
  bool centred_ = false;  // opened by a command, not at the pointer
  // The floating popup. Its place is kept relative to its figure's top (`owner_top`), so the
  // page scrolling moves both together; without an owner, relative to the screen.
  ImVec2 item_min_, item_max_;                // the number it explains, screen px when opened
  float item_owner_top_ = 0;                  // the owner's top at that moment
  bool focus_on_open_ = false;                // opened with Enter: the popup takes the keyboard
  int frames_shown_ = 0;                      // frames drawn since this explanation opened
  bool below_ = true;                         // under the number (else above it), decided once it has a size
  ImVec2 popup_min_, popup_max_;              // where it was drawn last frame, screen px
  std::optional<nlohmann::json> popup_rect_;  // the same in CSS px, for state()
  bool sheet_ = false;
  std::optional<nlohmann::json> sheet_rect_;  // where the sheet was drawn, CSS px
  float sheet_top_ = FLT_MAX;                 // its top edge last frame, screen px
  bool owner_seen_ = false;                   // its widget was on screen since it opened
  bool seen_above_sheet_ = false;             // ...and above the sheet's top edge
  std::vector<nlohmann::json> events_;
};

// A number the learner can tap, under its label: `make` explains it.
struct ExplainedFigure {
  std::string id;  // the number's ImGui id, "##pairs"
  std::string label, value;
  Explainer::Make make;
};
// Figures flowing across `width`, each a small muted label over its bold number: `columns` to a
// line on a wide card, two on a phone (under 480 CSS px), none narrower than its words.
void draw_figure_flow(const UiContext& ui, Explainer& explainer, const std::vector<ExplainedFigure>& figures,
                      int columns, float width);

}  // namespace neuralpath::ui
