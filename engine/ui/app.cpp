// app.cpp: loading a lesson, the frame, commands, state and events.
//
// [SECTION] Loading     parse + engine checks, the session, one widget per widget block
// [SECTION] Frame       style for the scale and theme, widgets, the page, events
// [SECTION] Commands    page commands, then routing to widgets
// [SECTION] State       the page as JSON, rectangles in CSS pixels
#include "app.h"

#include "engine/text/catalogue.h"
#include "engine/text/format.h"
#include "engine/ui/page_limits.h"
#include "engine/lesson/load.h"
#include "engine/lesson/model_spec.h"
#include "engine/ui/document_export.h"
#include "engine/ui/lesson_page.h"
#include "engine/ui/lesson_session.h"
#include "engine/ui/page_limits.h"
#include "engine/ui/widget.h"
#include "engine/ui/measured_value.h"
#include "engine/ui/page_commands.h"
#include "engine/ui/widgets/registry.h"

#include <imgui.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <variant>

namespace neuralpath::ui {

using nlohmann::json;

namespace {

json ok() { return {{"ok", true}}; }
json refused(const std::string& error) { return {{"ok", false}, {"error", error}}; }

// A widget block's kind ("heatmap"), or nullptr for the blocks the page draws itself.
const char* widget_kind(const lesson::BlockContent& content) {
  const WidgetKind* kind = find_widget_kind(lesson::widget_kind_name(content));
  return kind ? kind->name() : nullptr;
}

json rect_json(const ImRect& r, float scale) {
  return json::array({r.Min.x / scale, r.Min.y / scale, r.GetWidth() / scale, r.GetHeight() / scale});
}

}  // namespace

struct WidgetEntry {
  const lesson::Block* block = nullptr;
  std::string id;       // the block's id, or "<kind>-<n>" when it has none
  std::string section;  // anchor of the section holding it ("" for the intro)
  std::unique_ptr<Widget> widget;
  std::string error;      // why there is no widget
  nlohmann::json opened;  // its snapshot as the lesson opened it (a share leaves it out)
};

struct App::Impl {
  std::string lesson_id;
  std::string lesson_text;  // as handed to load_lesson
  std::string title;
  std::unique_ptr<lesson::Lesson> lesson;  // stable address: the session and views point into it
  std::unique_ptr<LessonSession> session;
  std::vector<std::string> errors;  // "file:line:col: error: message"
  std::vector<WidgetEntry> widgets;
  std::map<const lesson::Block*, Widget*> widget_map;
  std::map<const lesson::Block*, std::string> section_of;  // block -> section anchor ("" in the intro)
  LessonPage page;
  float time = 0;
  int transport_step = -1;            // the transport's step last put in the learner's progress
  std::string next_title, next_href;  // the course's next lesson (nextLesson command)

  // Widget blocks in reading order, and how many of them have their widget built: App::load_lesson
  // with `widgets_later` leaves them to build_widgets (the page builds one per task while it
  // opens), and whatever reads or draws widgets builds the rest first (build_all).
  std::vector<const lesson::Block*> widget_blocks;
  std::size_t widgets_built = 0;
  std::optional<ModelSpec> spec;
  std::string spec_error;
  std::map<std::string, int> per_kind;

  void build_widget(const lesson::Block& block) {
    const char* kind = widget_kind(block.content);
    WidgetEntry entry;
    entry.block = &block;
    entry.id = block.id.empty() ? std::string(kind) + "-" + std::to_string(++per_kind[kind]) : block.id;
    entry.section = section_of.count(&block) ? section_of[&block] : "";
    if (!spec) {
      entry.error = spec_error;
    } else {
      try {
        entry.widget = make_widget(block, *lesson, *spec);
        if (!entry.widget) entry.error = tr("commands.no_view", {{"kind", kind}});
      } catch (const std::exception& e) {
        entry.error = e.what();
      }
    }
    widget_map[&block] = entry.widget.get();
    if (entry.widget) entry.opened = entry.widget->snapshot();
    widgets.push_back(std::move(entry));
  }
  std::size_t build_widgets(std::size_t count) {
    for (; count > 0 && widgets_built < widget_blocks.size(); --count) build_widget(*widget_blocks[widgets_built++]);
    return widget_blocks.size() - widgets_built;
  }
  void build_all() { build_widgets(widget_blocks.size()); }

  WidgetEntry* find_widget(std::string_view id) {
    for (WidgetEntry& w : widgets)
      if (w.id == id) return &w;
    return nullptr;
  }
  // The first widget with a transport (Widget::transport(): a timeline the learner plays
  // through); its step is part of the learner's progress and state()'s "playback".
  WidgetEntry* first_transport() {
    for (WidgetEntry& w : widgets)
      if (w.widget && w.widget->transport()) return &w;
    return nullptr;
  }
};

App::App() : impl_(std::make_unique<Impl>()) {}
App::~App() = default;

void App::set_theme(Theme theme) { theme_ = theme; }

float App::scale() const { return viewport_.pixel_scale > 0 ? viewport_.pixel_scale : 1.0f; }

// [SECTION] Loading -------------------------------------------------------------------------------

void App::load_lesson(std::string_view id, std::string_view markdown, LessonOpening how) {
  impl_ = std::make_unique<Impl>();
  Impl& m = *impl_;
  m.lesson_id = std::string(id);
  m.lesson_text = std::string(markdown);
  m.title = std::string(id);
  const std::string file = "lessons/" + m.lesson_id + ".md";
  lesson::LoadResult result;
  try {
    lesson::LoadOptions options = with_widgets();
    options.train_lesson_weights = how.train_weights;
    options.engine_checks = !how.checked_by_build;
    result = lesson::load_lesson_text(markdown, file, options);
  } catch (const std::exception& e) {  // the loader reports problems as diagnostics; this is a last guard
    result.lesson.reset();
    result.diagnostics = {{file, {1, 1}, tr("commands.lesson_unreadable_because", {{"error", e.what()}})}};
  }
  if (!result.ok()) {
    for (const lesson::Diagnostic& d : result.diagnostics) m.errors.push_back(d.to_string());
    if (m.errors.empty())
      m.errors.push_back(lesson::Diagnostic{file, {1, 1}, tr("commands.lesson_unreadable")}.to_string());
    events_.push_back(json{{"type", "ready"}, {"lesson", m.lesson_id}, {"errors", m.errors.size()}}.dump());
    return;
  }
  m.lesson = std::make_unique<lesson::Lesson>(std::move(*result.lesson));
  m.title = m.lesson->title;
  m.session = std::make_unique<LessonSession>(*m.lesson, m.lesson_id);

  // One widget per widget block, in reading order, each knowing its section.
  std::map<const lesson::Block*, std::string>& section_of = m.section_of;
  for (const lesson::Section& section : m.lesson->sections)
    lesson::for_each_block(section.blocks, [&](const lesson::Block& b) { section_of[&b] = section.anchor; });
  try {
    m.spec = lesson::model_spec_for(*m.lesson);
  } catch (const std::exception& e) {
    m.spec_error = e.what();
  }
  lesson::for_each_block(*m.lesson, [&](const lesson::Block& block) {
    if (widget_kind(block.content)) m.widget_blocks.push_back(&block);
  });
  if (!how.widgets_later) m.build_all();
  events_.push_back(json{{"type", "ready"}, {"lesson", m.lesson_id}, {"title", m.title}}.dump());
}

std::size_t App::build_widgets(std::size_t count) { return impl_->build_widgets(count); }

const std::string& App::lesson_text() const {
  static const std::string none;
  return impl_ ? impl_->lesson_text : none;
}

std::size_t App::widgets_pending() const { return impl_->widget_blocks.size() - impl_->widgets_built; }

// [SECTION] Frame ---------------------------------------------------------------------------------

void App::apply_style() {
  // The App is the one owner of ImGui's global style: it builds the style for its theme and
  // scale once, then puts it in place every frame. Anything else that resets the style (the
  // platform after a WebGL context restore, a test) is undone by the next frame, so the theme
  // can never fall back to ImGui's dark defaults behind the App's back.
  const float s = scale();
  if (s != styled_scale_ || theme_ != styled_theme_ || !style_built_) {
    ImGuiStyle& live = ImGui::GetStyle();
    const ImGuiStyle before = live;
    live = ImGuiStyle();  // ScaleAllSizes multiplies, so start from ImGui's defaults
    apply_imgui_style(theme_);
    live.ScaleAllSizes(s);
    style_ = std::make_unique<ImGuiStyle>(live);
    live = before;
    styled_scale_ = s;
    styled_theme_ = theme_;
    style_built_ = true;
  }
  ImGui::GetStyle() = *style_;
}

void App::frame(float dt) {
  Impl& m = *impl_;
  m.build_all();
  m.time += dt;
  apply_style();
  const UiContext ui{&fonts_, theme_, scale(), reduced_motion_};
  for (WidgetEntry& w : m.widgets)
    if (w.widget) w.widget->update(dt);

  std::vector<json> page_events;
  LessonPage::Frame frame;
  frame.ui = ui;
  frame.session = m.session.get();
  frame.widgets = &m.widget_map;
  frame.events = &page_events;
  frame.errors = &m.errors;
  frame.lesson_id = m.lesson_id;
  frame.notice = font_error_;
  frame.next_title = m.next_title;
  frame.next_href = m.next_href;
  frame.time = m.time;
  frame.dt = dt;
  m.page.draw(frame);
  for (json& e : page_events) {
    // A widget's export button names its block (block_view.cpp); the page knows widgets by id.
    if (e.contains("block") && e["block"].is_number_unsigned()) {
      const auto* block =
          reinterpret_cast<const lesson::Block*>(static_cast<std::uintptr_t>(e["block"].get<std::uint64_t>()));
      e.erase("block");
      for (const WidgetEntry& w : m.widgets)
        if (w.block == block) e["widget"] = w.id;
    }
    events_.push_back(e.dump());
  }

  // The transport's position (the course playback's step) is part of the learner's progress.
  if (WidgetEntry* transport = m.first_transport(); transport && m.session) {
    const json state = *transport->widget->transport();
    if (state.contains("step") && state["step"].is_number_integer()) {
      const int step = state["step"].get<int>();
      if (step != m.transport_step) {
        m.transport_step = step;
        m.session->set_step(step);
      }
    }
  }
}

void App::finger_down() { impl_->page.finger_down(); }

void App::before_new_frame() {
  impl_->page.filter_pointer(ImGui::GetIO(), 8 * scale());  // 8 CSS px: a finger's wobble
}

bool App::wants_another_frame() const {
  impl_->build_all();
  if (impl_->page.touch_pending()) return true;  // a held-back tap still needs its frames
  for (const WidgetEntry& w : impl_->widgets)
    if (w.widget && w.widget->wants_another_frame()) return true;
  return false;
}

std::vector<std::string> App::take_events() {
  Impl& m = *impl_;
  m.build_all();
  if (m.session)
    for (const json& e : m.session->take_events()) events_.push_back(e.dump());
  for (WidgetEntry& w : m.widgets) {
    if (!w.widget) continue;
    for (json e : w.widget->take_events()) {
      if (e.is_object() && !e.contains("widget")) e["widget"] = w.id;
      events_.push_back(e.dump());
    }
  }
  std::vector<std::string> out;
  out.swap(events_);
  return out;
}

// [SECTION] Commands ------------------------------------------------------------------------------

// Runs one page command (page_commands.h) on the App; each returns the reply.
struct App::Runner {
  App& app;
  Impl& m;

  static json reply(const std::optional<std::string>& e) { return e ? refused(*e) : ok(); }
  LessonSession& session() const { return *m.session; }

  json operator()(const page::SetTheme& c) {
    app.set_theme(c.dark ? Theme::dark : Theme::light);
    app.events_.push_back(json{{"type", "theme"}, {"dark", app.theme_ == Theme::dark}}.dump());
    return ok();
  }
  json operator()(const page::SetReducedMotion& c) {
    app.reduced_motion_ = c.reduce;
    return ok();
  }
  json operator()(const page::ShowScrollThumb& c) {  // an embedding host that scrolls the page itself hides it
    m.page.set_scroll_thumb(c.shown);
    return ok();
  }
  json operator()(const page::Scroll& c) {
    const float value = c.css_px * app.scale();
    switch (c.mode) {
      case page::Scroll::Mode::by: m.page.scroll_by(value); break;
      // an embedding host moved the canvas over another part of the page (np-host.js): no scroll of the learner's
      case page::Scroll::Mode::placed: m.page.place_at(value); break;
      case page::Scroll::Mode::to: m.page.scroll_to(value); break;
    }
    return ok();
  }
  json operator()(const page::SetVisibleBand& c) {  // embedded: the band of the canvas the learner sees
    if (c.band)
      m.page.set_visible_band(std::make_pair(c.band->first * app.scale(), c.band->second * app.scale()), c.learner);
    else
      m.page.set_visible_band(std::nullopt, c.learner);
    return ok();
  }
  json operator()(const page::GotoSection& c) {
    if (auto e = session().enter_section(c.section)) return reply(e);
    m.page.goto_section(c.section, /*glide=*/false, app.reduced_motion_);
    m.page.set_contents_open(false);
    return ok();
  }
  json operator()(const page::Answer& c) { return reply(session().answer(c.check, c.options)); }
  json operator()(const page::Reveal& c) {
    if (lesson::find_check(*m.lesson, c.id)) return reply(session().reveal_answer(c.id));  // a check's answer
    return reply(session().set_reveal(c.id, c.open));
  }
  json operator()(const page::Hint& c) { return reply(session().show_hint(c.check)); }
  json operator()(const page::Retry& c) { return reply(session().retry(c.check)); }
  json operator()(const page::RestoreProgress& c) {
    std::vector<std::string> dropped;  // parts of the record left out: the page keeps the original
    if (auto e = session().restore(c.record, &dropped)) return reply(e);
    if (!session().section().empty()) m.page.goto_section(session().section(), false, app.reduced_motion_);
    if (WidgetEntry* transport = m.first_transport(); transport && session().progress().step > 0) {
      m.transport_step = session().progress().step;
      transport->widget->command({{"type", "seek"}, {"step", session().progress().step}});  // best effort
    }
    json done = ok();
    if (!dropped.empty()) done["dropped"] = dropped;
    return done;
  }
  json operator()(const page::Reset&) {
    session().reset();
    m.page.reset_scroll();
    return ok();
  }
  json operator()(const page::NextLesson& c) {  // the page's JS knows the course (lessons/index.json)
    m.next_href = c.href;
    m.next_title = c.title;
    return ok();
  }
  json operator()(const page::OpenContents& c) {
    m.page.set_contents_open(c.open);
    return ok();
  }
  // A shared link's state (web/shell/np-share.js): the section and each changed widget's
  // snapshot, and back. Widgets a snapshot names but this lesson lacks are reported, not fatal.
  json operator()(const page::TakeSnapshot&) {
    json widgets = json::object();
    for (const WidgetEntry& w : m.widgets)
      if (w.widget)
        if (json snap = w.widget->snapshot(); !snap.is_null() && snap != w.opened) widgets[w.id] = std::move(snap);
    json done = ok();
    done["section"] = session().section();
    done["widgets"] = std::move(widgets);
    return done;
  }
  json operator()(const page::RestoreSnapshot& c) {
    json dropped = json::array();
    for (const auto& [id, snap] : c.widgets.items()) {
      WidgetEntry* w = m.find_widget(id);
      const CommandResult r =
          w && w->widget ? w->widget->restore(snap) : CommandResult(tr("share.no_widget", {{"id", id}}));
      if (!r.done()) dropped.push_back(json{{"widget", id}, {"error", r.reason()}});
    }
    json done = ok();
    if (!dropped.empty()) done["dropped"] = std::move(dropped);
    return done;
  }

  // Everything else is a widget's: the named one, else the current section's, else the lesson's.
  json widget_command(const json& message, const std::string& type) {
    auto widget_reply = [](const CommandResult& r) { return r.done() ? ok() : refused(r.reason()); };
    if (message.contains("widget")) {
      if (!message["widget"].is_string()) return refused(tr("commands.widget_what"));
      WidgetEntry* w = m.find_widget(message["widget"].get<std::string>());
      if (!w) return refused(tr("commands.no_widget", {{"id", message["widget"].get<std::string>()}}));
      if (!w->widget) return refused(tr("commands.widget_unavailable", {{"id", w->id}, {"error", w->error}}));
      return widget_reply(w->widget->command(message));
    }
    std::vector<WidgetEntry*> order;
    for (WidgetEntry& w : m.widgets)
      if (w.widget && w.section == session().section()) order.push_back(&w);
    for (WidgetEntry& w : m.widgets)
      if (w.widget && w.section != session().section()) order.push_back(&w);
    if (order.empty()) return refused(tr("commands.unknown", {{"type", type}}));
    std::optional<std::string> first_error;
    for (WidgetEntry* w : order) {
      const CommandResult r = w->widget->command(message);
      if (r.done()) return ok();
      // A widget that knows the command but refuses its arguments has the useful message.
      if (!first_error && r.outcome() == CommandResult::Outcome::refused) first_error = r.reason();
    }
    return refused(first_error ? *first_error : tr("commands.unknown", {{"type", type}}));
  }
};

std::string App::command(std::string_view text) {
  // Nothing deeper than kMaxCommandNesting is built (page_limits.h): a deep tree would be
  // written out again (a record's dump, a reply) by recursion, past the page's stack.
  bool too_deep = false;
  const json::parser_callback_t limit_depth = [&too_deep](int depth, json::parse_event_t event, json&) {
    if ((event == json::parse_event_t::object_start || event == json::parse_event_t::array_start) &&
        depth >= kMaxCommandNesting) {
      too_deep = true;
      return false;
    }
    return true;
  };
  if (text.size() > kMaxCommandBytes)
    return refused(tr("commands.too_large", {{"max", format_bytes(static_cast<double>(kMaxCommandBytes))}})).dump();
  const json message = json::parse(text, limit_depth, /*allow_exceptions=*/false);
  if (too_deep) return refused(tr("commands.too_deep", {{"max", std::to_string(kMaxCommandNesting)}})).dump();
  if (!message.is_object() || !message.contains("type") || !message["type"].is_string())
    return refused(tr("commands.not_a_command")).dump();
  const std::string type = message["type"].get<std::string>();
  Impl& m = *impl_;
  m.build_all();
  Runner run{*this, m};
  const page::CommandName* name = page::find_command(type);
  // Commands that work whether or not the lesson loaded come first; the rest need it.
  if ((!name || name->needs_lesson) && !m.session) {
    if (m.errors.empty()) return refused(tr("commands.no_lesson")).dump();
    return refused(tr_n("commands.lesson_did_not_load", static_cast<long long>(m.errors.size()),
                        {{"n", std::to_string(m.errors.size())}}))
        .dump();
  }
  try {
    if (!name) return run.widget_command(message, type).dump();
    page::Parsed parsed = name->parse(message);
    if (const auto* reason = std::get_if<std::string>(&parsed)) return refused(*reason).dump();
    return std::visit(run, std::get<page::Command>(parsed)).dump();
  } catch (const std::exception& e) {
    return refused(tr("commands.failed", {{"error", e.what()}})).dump();
  }
}

// [SECTION] State ---------------------------------------------------------------------------------

std::string App::document_json() const {
  const Impl& m = *impl_;
  json doc = m.lesson ? ui::document_json(*m.lesson)
                      : json{{"title", m.title}, {"intro", json::array()}, {"sections", json::array()}};
  doc["lesson"] = m.lesson_id;
  doc["errors"] = m.errors;
  return doc.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string App::state_json() const {
  impl_->build_all();
  const Impl& m = *impl_;
  const float s = scale();
  const PageGeometry& geometry = m.page.geometry();
  json state = {{"lesson", m.lesson_id},
                {"title", m.title},
                {"errors", m.errors},
                {"theme", theme_ == Theme::dark ? "dark" : "light"}};
  const ImRect column = m.page.column();
  state["layout"] = {{"narrow", m.page.narrow()},
                     {"contents_open", m.page.contents_open()},
                     {"contents_scroll", m.page.contents_scroll() / s},
                     {"column", rect_json(column, s)},
                     {"scroll", m.page.scroll() / s},
                     {"scroll_max", m.page.scroll_max() / s},
                     {"content_height", m.page.natural_height() / s},
                     {"scale", s}};
  if (!m.session) {
    state["section"] = nullptr;
    state["sections"] = json::array();
    state["checks"] = json::array();
    state["reveals"] = json::array();
    state["widgets"] = json::array();
    state["playback"] = nullptr;
    state["progress"] = nullptr;
    return state.dump(-1, ' ', false, json::error_handler_t::replace);
  }
  state["section"] = m.session->section();
  json sections = json::array();
  for (const lesson::Section& section : m.lesson->sections) {
    json item = {{"anchor", section.anchor}, {"title", section.title}, {"level", lesson::level_name(section.level)}};
    if (auto it = geometry.section_top.find(section.anchor); it != geometry.section_top.end())
      item["top"] = it->second / s;  // page offset, CSS px
    sections.push_back(std::move(item));
  }
  state["sections"] = sections;

  json checks = m.session->checks_json();
  for (json& check : checks) {
    const std::string id = check["id"].get<std::string>();
    if (const lesson::Block* block = lesson::find_block(*m.lesson, id); block && m.section_of.count(block))
      check["section"] = m.section_of.at(block);
    if (auto it = geometry.check_rect.find(id); it != geometry.check_rect.end())
      check["rect"] = rect_json(it->second, s);
    json rects = json::array();
    if (auto it = geometry.option_rect.find(id); it != geometry.option_rect.end())
      for (const ImRect& r : it->second) rects.push_back(rect_json(r, s));
    check["option_rects"] = rects;
    // A committed prediction's measured value, as its card prints it (measured_value.h).
    if (const lesson::Check* c = lesson::find_check(*m.lesson, id);
        c && c->measured && check.value("committed", false)) {
      const std::optional<std::string> now = measured_text(*c->measured, *m.lesson, m.widget_map);
      check["measured"]["text"] = now ? json(*now) : json(nullptr);
    }
  }
  state["checks"] = checks;
  if (geometry.finish.GetWidth() > 0) {
    json finish = {{"rect", rect_json(geometry.finish, s)}, {"next_title", m.next_title}, {"next_href", m.next_href}};
    if (geometry.next_lesson.GetWidth() > 0) finish["next"] = rect_json(geometry.next_lesson, s);
    state["finish"] = std::move(finish);
  }
  json reveals = m.session->reveals_json();
  for (json& reveal : reveals)
    if (auto it = geometry.reveal_rect.find(reveal["id"].get<std::string>()); it != geometry.reveal_rect.end())
      reveal["rect"] = rect_json(it->second, s);
  state["reveals"] = reveals;

  json widgets = json::array();
  for (const WidgetEntry& w : m.widgets) {
    json item = w.widget ? w.widget->state() : json{{"kind", widget_kind(w.block->content)}, {"error", w.error}};
    if (!item.is_object()) item = json{{"value", item}};
    item["id"] = w.id;
    item["section"] = w.section;
    if (auto it = geometry.widget_rect.find(w.block); it != geometry.widget_rect.end())
      item["rect"] = rect_json(it->second, s);
    widgets.push_back(std::move(item));
  }
  state["widgets"] = widgets;
  state["playback"] = nullptr;  // the first transport's position (docs/protocol.md)
  for (const WidgetEntry& w : m.widgets) {
    if (!w.widget) continue;
    std::optional<json> transport = w.widget->transport();
    if (!transport) continue;
    json out = json::object();
    for (const char* key : {"step", "steps", "playing", "caption", "speed"})
      out[key] = transport->contains(key) ? (*transport)[key] : json(nullptr);
    out["id"] = w.id;
    state["playback"] = out;
    break;
  }
  state["progress"] = m.session->progress_json();
  return state.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace neuralpath::ui
