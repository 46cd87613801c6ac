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
#include "engine/ui/widgets/explanation.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

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
  void close() { current_.reset(); }
  bool is_open() const { return current_.has_value(); }
  const std::optional<Explanation>& current() const { return current_; }

  void draw_popup(const UiContext& ui);       // call once per frame at the end of draw()
  nlohmann::json state() const;               // {"open": false} or {"open": true, ...}
  std::vector<nlohmann::json> take_events();  // {"type": "explain", "text": ...} when opened

 private:
  bool activated();  // clicked, or Enter while focused

  std::optional<Explanation> current_;
  bool open_requested_ = false;
  bool shown_ = false;
  bool centred_ = false;  // opened by a command, not at the pointer
  std::vector<nlohmann::json> events_;
};

}  // namespace neuralpath::ui
