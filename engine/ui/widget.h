// Widget: the seam between the lesson page and each interactive view (spotlight, heatmap, mask
// steps, cost explorer, playback board). The page lays widgets out in the reading flow; a
// widget draws itself at the cursor, across the available width, from numbers the engine
// computed (a Trace), and reports those numbers for window.neuralpath.state().
//
//   make_widget(block, lesson, spec)  -> a widget for a widget block, or nullptr
//   widget.update(dt)                 -> animation time (playback), once per frame
//   widget.draw(ui)                   -> ImGui drawing only; never recomputes maths
//   widget.state()                    -> {"kind": "heatmap", "tokens": [...], ...}
//   widget.command(message)           -> setSentence / play / pause / step ... (a CommandResult)
#pragma once
#include "engine/core/model.h"
#include "engine/lesson/lesson.h"
#include "engine/widgets/command_result.h"
#include "engine/ui/fonts.h"
#include "engine/ui/theme.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace neuralpath::ui {

// The UI draws the widget library's models (engine/widgets, namespace neuralpath::widgets): its
// names (the models and their commands, CommandResult, Explanation, the kinds) are the UI's to
// use as they are, in the views and the App alike.
using namespace neuralpath::widgets;

// What a view may read while drawing: faces, colours and scale of this frame.
struct UiContext {
  const Fonts* fonts = nullptr;
  Theme theme = Theme::light;
  float scale = 1;  // device pixels per CSS pixel; multiply fixed sizes by it
  bool reduced_motion = false;
  const Palette& colors() const { return palette(theme); }
  float px(float css_pixels) const { return css_pixels * scale; }
};

class Widget {
 public:
  virtual ~Widget() = default;

  virtual const char* kind() const = 0;  // "spotlight", "heatmap", ... (state()'s "kind")
  virtual void update(float /*dt*/) {}
  // True while the widget changes with time alone (work done in update(), a timed advance), so
  // the page must keep running frames although nothing is touched (App::wants_another_frame).
  virtual bool wants_another_frame() const { return false; }
  virtual void draw(const UiContext& ui) = 0;
  virtual nlohmann::json state() const = 0;  // the numbers on screen, as the learner sees them

  // A command addressed to this widget ({"type": "setSentence", "text": ...}).
  // Default: the widget takes no commands.
  virtual CommandResult command(const nlohmann::json& message) {
    return CommandResult::not_taken(message.value("type", std::string("?")));
  }

  // The learner's changes (sentence, mask, selection, ...) as compact JSON, so a shared link can
  // reopen them, and back: restore() takes what snapshot() gave. Default: nothing to keep.
  virtual nlohmann::json snapshot() const { return nullptr; }
  virtual CommandResult restore(const nlohmann::json& /*snapshot*/) { return CommandResult::not_taken("restore"); }

  // A widget with a transport (a timeline the learner plays, steps and seeks through with the
  // commands play, pause, step and seek{step}) says where it is: {step, steps, playing, caption,
  // speed}. The page keeps the first one's step in the learner's progress, seeks it back on
  // restore, and shows it as state()'s "playback". Default: no transport.
  virtual std::optional<nlohmann::json> transport() const { return std::nullopt; }

  // Events for the page's host since the last call ({"type": "caption", ...}); the App adds
  // them to its own queue (App::take_events).
  virtual std::vector<nlohmann::json> take_events() { return {}; }
};

// A widget for `block` if it is a widget block, made by its kind's registry entry
// (engine/ui/widgets/registry.h), else nullptr. `spec` is the lesson's model
// (lesson::model_spec_for).
std::unique_ptr<Widget> make_widget(const lesson::Block& block, const lesson::Lesson& lesson, const ModelSpec& spec);

}  // namespace neuralpath::ui
