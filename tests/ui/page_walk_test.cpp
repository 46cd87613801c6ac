// Issue #34, a learner's walk through the lessons on a phone and a desk: what got in the way,
// each as the behaviour a learner relies on now.
#include "headless.h"
#include "engine/lesson/progress.h"
#include "engine/widgets/cost_explorer/cost_explorer_model.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

using namespace neuralpath;
using namespace neuralpath::ui::test;  // the page's names, json and the harness (headless.h)

namespace {

json check_state(Headless& page, const std::string& id) {
  const json state = page.state();
  for (const json& c : state["checks"])
    if (c["id"] == id) return c;
  FAIL("no check " << id);
  return nullptr;
}

float y_of(const json& rect) { return rect[1].get<float>(); }

// Opens `lesson` with `widget`'s top `top_at` CSS px down the screen.
void open_at(Headless& page, const std::string& lesson, const std::string& widget, float top_at) {
  page.load_file("lessons/" + lesson + ".md");
  page.command({{"type", "reducedMotion"}, {"reduce", true}});
  page.frames(2);
  page.command({{"type", "goto"}, {"section", widget_state(page, widget)["section"]}});
  page.frames(2);
  page.command({{"type", "scroll"}, {"by", y_of(widget_state(page, widget)["rect"]) - top_at}});
  page.frames(3);
}

// A tap with a finger on a phone, a click with the mouse on a desk.
void press(Headless& page, bool phone, float x, float y) {
  if (phone)
    page.tap(x, y);
  else
    page.click(x, y);
}

}  // namespace

// [SECTION] Item 1: a number's derivation belongs to its figure -----------------------------------

TEST_CASE(
    "a derivation popup scrolls with its figure, a tap elsewhere still does its job, and it closes once its number is "
    "gone") {
  for (const bool phone : {false, true}) {
    CAPTURE(phone);
    Headless page(phone ? 375.0f : 1440.0f, phone ? 740.0f : 900.0f, phone ? 2.0f : 1.0f);
    open_at(page, "self-attention", "it-spotlight", 150);
    json spot = widget_state(page, "it-spotlight");
    const auto [lx, ly] = centre(spot["layout"]["labels"][1]);  // "animal"'s percentage
    press(page, phone, lx, ly);
    page.frames(3);
    spot = widget_state(page, "it-spotlight");
    REQUIRE(spot["explained"]["open"] == true);
    REQUIRE(spot["explained"].contains("popup"));
    const float popup_y = y_of(spot["explained"]["popup"]), widget_y = y_of(spot["rect"]);

    // The page scrolls by 120 px (the wheel on a desk, a finger on a phone): the popup too.
    if (phone) {
      page.swipe(200, 600, 200, 480);
    } else {
      page.move(lx, ly + 300);
      page.command({{"type", "scroll"}, {"by", 120}});
    }
    page.frames(3);
    spot = widget_state(page, "it-spotlight");
    const float moved = widget_y - y_of(spot["rect"]);
    REQUIRE(moved > 60);
    REQUIRE(spot["explained"]["open"] == true);
    CHECK(widget_y - moved == doctest::Approx(y_of(spot["rect"])));
    CHECK(y_of(spot["explained"]["popup"]) == doctest::Approx(popup_y - moved).epsilon(0.01));

    // A tap on another word, outside the popup, makes it the query at once (#34: the popup took
    // the tap just to close itself), and the popup goes.
    const json chips = spot["layout"]["chips"];
    const json popup = spot["explained"]["popup"];
    int target = -1;
    for (std::size_t k = 0; k < chips.size() && target < 0; ++k) {
      const auto [cx, cy] = centre(chips[k]);
      const bool under = cx >= popup[0].get<float>() && cx <= popup[0].get<float>() + popup[2].get<float>() &&
                         cy >= popup[1].get<float>() && cy <= popup[1].get<float>() + popup[3].get<float>();
      if (!under && cy > 60 && cy < (phone ? 700 : 880) && spot["tokens"][k] != spot["query"] &&
          spot["tokens"][k] != ".")
        target = static_cast<int>(k);
    }
    REQUIRE(target >= 0);
    const auto [tx, ty] = centre(chips[static_cast<std::size_t>(target)]);
    press(page, phone, tx, ty);
    page.frames(3);
    spot = widget_state(page, "it-spotlight");
    CHECK(spot["query_index"] == target);
    CHECK(spot["explained"]["open"] == false);

    // Opened again, then the page scrolls the number out of sight: the popup closes by itself.
    const auto [lx2, ly2] = centre(spot["layout"]["labels"][0]);
    press(page, phone, lx2, ly2);
    page.frames(3);
    REQUIRE(widget_state(page, "it-spotlight")["explained"]["open"] == true);
    page.command({{"type", "scroll"}, {"by", 1500}});
    page.frames(3);
    CHECK(widget_state(page, "it-spotlight")["explained"]["open"] == false);
  }
}

// [SECTION] Item 2: the contents drawer by finger ---------------------------------------------------

TEST_CASE("on a phone a finger's swipe scrolls the contents drawer, not the page under it") {
  Headless page(375, 740, 2);
  page.load_file("lessons/self-attention.md");
  page.frames(3);
  page.command({{"type", "contents"}, {"open", true}});
  page.frames(3);
  json layout = page.state()["layout"];
  REQUIRE(layout["contents_open"] == true);
  const float before = layout["contents_scroll"].get<float>(), page_before = layout["scroll"].get<float>();
  page.swipe(150, 620, 150, 220);
  page.frames(3);
  layout = page.state()["layout"];
  CHECK(layout["contents_open"] == true);
  CHECK(layout["contents_scroll"].get<float>() > before + 150);
  CHECK(layout["scroll"].get<float>() == doctest::Approx(page_before));
  page.swipe(150, 220, 150, 620);  // and back down
  page.frames(3);
  CHECK(page.state()["layout"]["contents_scroll"].get<float>() < 1);
}

// [SECTION] Item 3: each learner's own order of a check's options -----------------------------------

TEST_CASE(
    "a check shows its options in the learner's own order, the same after a reload, and answers keep the lesson's "
    "numbering") {
  Headless page(1440, 900);
  page.load_file("lessons/self-attention.md");
  page.frames(3);
  const json progress = page.state()["progress"];
  REQUIRE(progress.contains("order"));  // a new learner's seed, saved with the progress
  const auto shown_order = [&](const std::string& id) {
    // The options' top edges, in the lesson's numbering, sorted: the order they are drawn in.
    page.command({{"type", "goto"}, {"section", check_state(page, id)["section"]}});
    page.frames(3);
    const json check = check_state(page, id);
    std::vector<std::pair<float, int>> tops;
    for (std::size_t k = 0; k < check["option_rects"].size(); ++k)
      tops.push_back({y_of(check["option_rects"][k]), static_cast<int>(k)});
    std::sort(tops.begin(), tops.end());
    std::vector<int> order;
    for (const auto& [y, k] : tops) order.push_back(k);
    CHECK(check["order"] == json(order));  // state() says the order it draws
    return order;
  };
  // A fixed seed: across the lessons' six checks the right answer (option 0 in every lesson
  // file) is not always first, and the orders differ from check to check.
  json record = progress;
  record.erase("summary");
  record["order"] = 2718281828u;
  REQUIRE(page.command({{"type", "restore"}, {"progress", record.dump()}})["ok"] == true);
  page.frames(2);
  std::set<std::vector<int>> orders;
  int first_right = 0;
  for (const char* id : {"first-product", "why-minus-infinity", "held-out-why"}) {
    const std::vector<int> order = shown_order(id);
    orders.insert(order);
    first_right += order.front() == 0;
  }
  CHECK(orders.size() > 1);
  CHECK(first_right < 3);

  // The learner answers with what is shown second; the record and the event keep the lesson's number.
  const std::vector<int> order = shown_order("first-product");
  page.command(
      {{"type", "scroll"},
       {"by", y_of(check_state(page, "first-product")["option_rects"][static_cast<std::size_t>(order[1])]) - 400}});
  page.frames(2);
  page.events();
  const json check = check_state(page, "first-product");
  const auto [x, y] = centre(check["option_rects"][static_cast<std::size_t>(order[1])]);
  REQUIRE(y < 900);
  page.click(x, y);
  CHECK(check_state(page, "first-product")["chosen"] == json::array({order[1]}));
  const auto answered = page.events_of("answered");
  REQUIRE(answered.size() == 1);
  CHECK(answered[0]["option"] == order[1]);
  const json saved = page.state()["progress"];
  CHECK(saved["answers"]["first-product"] == json::array({order[1]}));

  // A reload: a new page restores the record, and shows the same order and answer.
  Headless again(375, 740, 2);
  again.load_file("lessons/self-attention.md");
  again.frames(2);
  json stored = saved;
  stored.erase("summary");
  REQUIRE(again.command({{"type", "restore"}, {"progress", stored.dump()}})["ok"] == true);
  again.frames(2);
  CHECK(check_state(again, "first-product")["order"] == json(order));
  CHECK(check_state(again, "first-product")["chosen"] == json::array({order[1]}));
  // Starting over forgets the answers, not where the options are.
  again.command({{"type", "reset"}});
  again.frames(2);
  CHECK(check_state(again, "first-product")["order"] == json(order));
  CHECK(check_state(again, "first-product")["chosen"] == json::array());
}

TEST_CASE("a record saved before the options were shuffled keeps its answers and gets an order of its own") {
  Headless page(1440, 900);
  page.load_file("lessons/self-attention.md");
  page.frames(2);
  const std::string old =
      R"({"v":1,"lesson":"self-attention","section":"qkv","visited":["qkv"],"answers":{"first-product":[0]},"reveals":[],"step":0})";
  REQUIRE(page.command({{"type", "restore"}, {"progress", old}})["ok"] == true);
  page.frames(2);
  const json progress = page.state()["progress"];
  CHECK(progress["order"].get<std::uint64_t>() > 0);
  CHECK(progress["answers"]["first-product"] == json::array({0}));
  CHECK(check_state(page, "first-product")["correct"] == true);
}

// [SECTION] Item 11: a goto's section stays at the top while the page above it settles ------------

TEST_CASE("a link to a section keeps its heading at the top while a figure above it grows, until the learner scrolls") {
  Headless page(375, 740, 2);
  page.load_file("lessons/self-attention.md");
  page.frames(2);
  page.command({{"type", "goto"}, {"section", "cost"}});
  page.frames(3);
  const auto off = [&] {
    const json state = page.state();
    for (const json& s : state["sections"])
      if (s["anchor"] == "cost") return state["layout"]["scroll"].get<float>() - s["top"].get<float>();
    return 1e9f;
  };
  REQUIRE(std::fabs(off()) < 1);
  // A figure above grows (a longer sentence in the spotlight: more rows of words).
  REQUIRE(page.command(
              {{"type", "setSentence"},
               {"widget", "it-spotlight"},
               {"text",
                "The old animal in the garden didn't cross the long and busy street because it was far too tired."}})
              ["ok"] == true);
  page.frames(4);
  CHECK(std::fabs(off()) < 1);
  // Once the learner scrolls, the page is theirs: it no longer follows the heading.
  page.command({{"type", "scroll"}, {"by", 40}});
  page.frames(2);
  CHECK(off() == doctest::Approx(40).epsilon(0.05));
}

// [SECTION] Item 4: controls a learner taps again and again keep their place ----------------------

TEST_CASE(
    "the mask steps' and split-join's Next stay where they are, from the first tap and while the pointer crosses the "
    "grid") {
  for (const bool phone : {true, false}) {
    CAPTURE(phone);
    Headless page(phone ? 375.0f : 1440.0f, 4000.0f, phone ? 2.0f : 1.0f);  // tall: every part of the card on screen
    for (const auto& [lesson, id, stages] :
         {std::tuple{"self-attention", "mask-walkthrough", 4}, std::tuple{"multi-head", "split-join-walk", 8}}) {
      CAPTURE(id);
      open_at(page, lesson, id, 60);
      const json spot = widget_state(page, id)["layout"]["next"];
      REQUIRE(spot.is_array());
      for (int step = 1; step < stages; ++step) {
        page.click(centre(spot).x, centre(spot).y);
        page.frames(2);
        const json w = widget_state(page, id);
        CHECK(w["stage_index"] == step);
        if (step + 1 < stages) CHECK(w["layout"]["next"] == spot);
        // The pointer over the grid's cells (their details show below): Next stays put.
        const json rect = w["rect"];
        for (float dy : {0.45f, 0.6f}) {
          page.move(rect[0].get<float>() + rect[2].get<float>() * 0.7f,
                    rect[1].get<float>() + rect[3].get<float>() * dy);
          page.frames(2);
          if (step + 1 < stages) CHECK(widget_state(page, id)["layout"]["next"] == spot);
        }
      }
    }
  }
}

TEST_CASE("the train widget's seed field and its − and + keep their place whatever the main button says") {
  for (const bool phone : {true, false}) {
    CAPTURE(phone);
    Headless page(phone ? 375.0f : 1440.0f, phone ? 740.0f : 900.0f, phone ? 2.0f : 1.0f);
    open_at(page, "self-attention", "train-pronoun", 60);
    const json seed = widget_state(page, "train-pronoun")["layout"]["seed"];
    const json go = widget_state(page, "train-pronoun")["layout"]["go"];
    REQUIRE(seed.is_array());
    for (const json& command :
         {json{{"type", "train"}}, json{{"type", "pause"}}, json{{"type", "trainSteps"}, {"n", 1000}}}) {
      json c = command;
      c["widget"] = "train-pronoun";
      page.command(c);
      page.frames(2);
      const json w = widget_state(page, "train-pronoun");
      CAPTURE(w["running"]);
      CAPTURE(w["finished"]);
      CHECK(w["layout"]["seed"] == seed);  // Train, Pause, Resume, Trained: one width
      CHECK(w["layout"]["go"] == go);
    }
  }
}

// [SECTION] Item 10: the train widget says what it shows --------------------------------------------

TEST_CASE("paused between curve points, the train widget's spotlight shows the weights of the step it stopped at") {
  Headless page(1440, 900);
  open_at(page, "self-attention", "train-pronoun", 60);
  json w = widget_state(page, "train-pronoun");
  CHECK(w["spotlight_step"] == 0);
  page.command({{"type", "train"}, {"widget", "train-pronoun"}});
  for (int i = 0; i < 2000 && widget_state(page, "train-pronoun")["step"].get<int>() < 13; ++i) page.frames(1);
  page.command({{"type", "pause"}, {"widget", "train-pronoun"}});
  page.frames(2);
  w = widget_state(page, "train-pronoun");
  REQUIRE(w["step"].get<int>() % 10 != 0);
  CHECK(w["spotlight_step"] == w["step"]);  // #34: "step 71" above "the weights of step 60"
  // Its words are those of this step's weights (the same engine run as a command's sentence).
  page.command({{"type", "setSentence"}, {"widget", "train-pronoun"}, {"text", w["sentence"]}});
  page.frames(2);
  CHECK(widget_state(page, "train-pronoun")["custom"]["weights"] == w["spotlight"]["weights"]);
}

TEST_CASE("with the other weights chosen, the train widget's plots show what those weights score") {
  Headless page(1440, 900);
  open_at(page, "self-attention", "train-pronoun", 60);
  page.command({{"type", "trainSteps"}, {"widget", "train-pronoun"}, {"n", 50}});
  json w = widget_state(page, "train-pronoun");
  CHECK_FALSE(w.contains("other_weights"));
  page.command({{"type", "useTrained"}, {"widget", "train-pronoun"}, {"trained", false}});
  page.frames(2);
  w = widget_state(page, "train-pronoun");
  REQUIRE(w.contains("other_weights"));
  // The hand-set weights of this lesson point "it" at the right word far more often than a
  // run's first 50 steps do; either way the figure is a held-out accuracy, not the run's.
  CHECK(w["other_weights"]["accuracy"].get<float>() >= 0);
  CHECK(w["other_weights"]["accuracy"].get<float>() <= 1);
  CHECK(w["other_weights"]["accuracy"] != w["accuracy"]);
  CHECK(w["summary"].get<std::string>().find("hand-set") != std::string::npos);
}

// [SECTION] Item 9: wide grids on a phone -----------------------------------------------------------

TEST_CASE(
    "on a phone an open head's grid shows the column it looks at most, and a sideways swipe scrolls the grid, not a "
    "cell") {
  Headless page(375, 740, 2);
  open_at(page, "multi-head", "every-head", 60);
  const auto visible = [](const json& cells, int col) {
    const float x = cells["origin"][0].get<float>() + cells["size"][0].get<float>() * static_cast<float>(col);
    const json clip = cells["clip"];
    return x >= clip[0].get<float>() - 0.5f &&
           x + cells["size"][0].get<float>() <= clip[0].get<float>() + clip[2].get<float>() + 0.5f;
  };
  for (int head = 0; head < 4; ++head) {
    CAPTURE(head);
    page.command({{"type", "open"}, {"widget", "every-head"}, {"layer", 0}, {"head", head}});
    page.frames(3);
    const json w = widget_state(page, "every-head");
    const json weights = w["weights"][0][static_cast<std::size_t>(head)];
    int bright = 0;
    float best = -1;
    for (std::size_t k = 0; k < weights.size(); ++k) {
      float sum = 0;
      for (const json& row : weights) sum += row[k].get<float>();
      if (sum > best) best = sum, bright = static_cast<int>(k);
    }
    const json cells = w["layout"]["cells"];
    REQUIRE(cells["clip"][2].get<float>() <
            cells["size"][0].get<float>() * static_cast<float>(weights.size()));  // it scrolls
    CHECK(visible(cells, bright));
  }
  // A sideways swipe across the cells: the grid moves under the finger and nothing is picked.
  page.command({{"type", "open"}, {"widget", "every-head"}, {"layer", 0}, {"head", 0}});
  page.frames(3);
  json cells = widget_state(page, "every-head")["layout"]["cells"];
  page.command({{"type", "scroll"}, {"by", cells["origin"][1].get<float>() - 200}});
  page.frames(2);
  cells = widget_state(page, "every-head")["layout"]["cells"];
  const float origin_x = cells["origin"][0].get<float>();
  const float y = cells["origin"][1].get<float>() + cells["size"][1].get<float>() * 1.5f;
  const float right = cells["clip"][0].get<float>() + cells["clip"][2].get<float>() - 10;
  const float toward =
      origin_x > cells["clip"][0].get<float>() + 1 ? 1.0f : -1.0f;  // scrolled right already: swipe back
  page.swipe(toward < 0 ? right : right - 200, y, toward < 0 ? right - 200 : right, y);
  page.frames(3);
  const json after = widget_state(page, "every-head");
  CHECK(after["layout"]["cells"]["origin"][0].get<float>() != doctest::Approx(origin_x));
  CHECK(after["selected"].is_null());
  CHECK(after["explained"]["open"] == false);
  // The row names stay at the grid's left edge, with the cells scrolled under them.
  CHECK(after["layout"]["cells"]["labels_x"].get<float>() == doctest::Approx(cells["labels_x"].get<float>()));
  CHECK(after["layout"]["cells"]["labels_x"].get<float>() < after["layout"]["cells"]["clip"][0].get<float>());
}

// [SECTION] Polish: the heatmap's hover, the head view's lines, a formula's signs ----------------------

TEST_CASE("hovering the heatmap's cells and leaving them does not change its card's height") {
  Headless page(1440, 900);
  open_at(page, "self-attention", "causal-grid", 60);
  page.move(5, 5);
  page.frames(3);
  const float resting = widget_state(page, "causal-grid")["rect"][3].get<float>();
  json w = widget_state(page, "causal-grid");
  const json grid = w["layout"]["grid"];
  for (const float fx : {0.5f, 0.7f, 0.95f})
    for (const float fy : {0.4f, 0.7f, 0.95f}) {
      page.move(grid[0].get<float>() + grid[2].get<float>() * fx, grid[1].get<float>() + grid[3].get<float>() * fy);
      page.frames(2);
      CHECK(widget_state(page, "causal-grid")["rect"][3].get<float>() == doctest::Approx(resting));
    }
  page.move(5, 5);
  page.frames(2);
  CHECK(widget_state(page, "causal-grid")["rect"][3].get<float>() == doctest::Approx(resting));
}

TEST_CASE("the head view draws its heaviest lines first, so no line hides under a thicker one") {
  Headless page(1440, 900);
  open_at(page, "multi-head", "trained-heads", 60);
  page.command({{"type", "focus"}, {"widget", "trained-heads"}, {"token", 3}});
  page.frames(2);
  for (int round = 0; round < 2; ++round) {
    const json lines = widget_state(page, "trained-heads")["layout"]["lines"];
    REQUIRE(lines.size() >= 4);
    std::set<int> heads;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      heads.insert(lines[i]["head"].get<int>());
      if (i > 0) CHECK(lines[i]["width"].get<float>() <= lines[i - 1]["width"].get<float>() + 1e-4f);
    }
    CHECK(heads.size() > 1);
    page.command({{"type", "focus"}, {"widget", "trained-heads"}, {"token", -1}});  // every word's lines
    page.frames(2);
  }
}

TEST_CASE("a derivation writes a negative factor in parentheses, never '+ -0.65'") {
  Headless page(1440, 900);
  open_at(page, "self-attention", "it-spotlight", 60);
  bool negative = false;
  for (int token = 0; token < 8; ++token) {
    page.command({{"type", "explain"}, {"widget", "it-spotlight"}, {"token", token}});
    page.frames(1);
    const json explained = widget_state(page, "it-spotlight")["explained"];
    for (const json& input : explained["inputs"]) {
      const std::string value = input["value"];
      CHECK(value.find("+ -") == std::string::npos);
      negative = negative || value.find("(-") != std::string::npos;
    }
  }
  CHECK(negative);  // some product has a negative factor, written "(-1.24)×0.32"
}

// [SECTION] Item 12: the spotlight's summary in order ---------------------------------------------------

TEST_CASE(
    "the spotlight's summary lists the other words heaviest first and says when the query keeps more for itself") {
  Headless page(1440, 900);
  open_at(page, "self-attention", "it-spotlight", 60);
  int self_said = 0;
  for (const char* text : {"The animal didn't cross the street because it was too tired.",
                           "The bird sat in the tree because it was tired.",
                           "it saw the bird and the tree and it was tired .", "The cat and it and the dog slept."}) {
    CAPTURE(text);
    page.command({{"type", "setSentence"}, {"widget", "it-spotlight"}, {"text", text}});
    page.frames(2);
    const json s = widget_state(page, "it-spotlight");
    const std::string summary = s["summary"];
    CAPTURE(summary);
    // Every percentage said about another word, in the order said, is no larger than the one before.
    std::vector<float> said;
    for (std::size_t at = summary.find('%'); at != std::string::npos; at = summary.find('%', at + 1)) {
      std::size_t from = at;
      while (from > 0 && (std::isdigit(static_cast<unsigned char>(summary[from - 1])) || summary[from - 1] == '.'))
        --from;
      said.push_back(std::stof(summary.substr(from, at - from)));
    }
    const bool self = summary.find("itself") != std::string::npos;
    self_said += self;
    const std::size_t others = said.size() - (self ? 1 : 0);
    for (std::size_t i = 1; i < others; ++i) CHECK(said[i] <= said[i - 1] + 0.05f);
    const float own = s["weights"][s["query_index"].get<std::size_t>()].get<float>() * 100;
    CHECK(self == (own > s["top"]["weight"].get<float>() * 100));
  }
}

// [SECTION] What a learner expects: finishing says so, and offers the next lesson ---------------------

TEST_CASE(
    "the card after the last section says what finishing takes, then that it is done, and its button opens the next "
    "lesson") {
  Headless page(1440, 900);
  page.load_file("lessons/multi-head.md");
  page.frames(2);
  REQUIRE(page.command({{"type", "nextLesson"},
                        {"href", "lesson.html?lesson=course-playback"},
                        {"title", "One sentence through a block"}})["ok"] == true);
  CHECK(page.command({{"type", "nextLesson"}, {"title", "x"}})["ok"] == false);
  page.command({{"type", "goto"}, {"section", "mistakes"}});
  page.frames(3);
  json finish = page.state()["finish"];
  REQUIRE(finish.is_object());
  CHECK(page.state()["progress"]["summary"]["completed"] == false);
  // Every section read and every check answered: the lesson is finished.
  const json lesson = page.state();  // kept: a range-for over a temporary's member would dangle
  for (const json& s : lesson["sections"]) page.command({{"type", "goto"}, {"section", s["anchor"]}});
  for (const json& c : lesson["checks"]) page.command({{"type", "answer"}, {"check", c["id"]}, {"option", 0}});
  page.command({{"type", "goto"}, {"section", "mistakes"}});
  page.frames(3);
  CAPTURE(page.state()["progress"]["summary"].dump());
  CHECK(page.state()["progress"]["summary"]["completed"] == true);
  page.command({{"type", "scroll"}, {"by", y_of(page.state()["finish"]["rect"]) - 200}});
  page.frames(3);
  finish = page.state()["finish"];
  REQUIRE(finish.contains("next"));
  page.events();
  const auto [x, y] = centre(finish["next"]);
  REQUIRE(y < 900);
  page.click(x, y);
  const auto links = page.events_of("openLink");
  REQUIRE(links.size() == 1);
  CHECK(links[0]["url"] == "lesson.html?lesson=course-playback");
}

// [SECTION] Polish: the cost run's time left ------------------------------------------------------------

TEST_CASE("the cost run's time left follows its recent pace, not its slow first frames") {
  // #34: "33.85 s left" for a run that took 18.9 s: the pace since the start counted the run's
  // first frames (the page busy starting it) for the whole run. Four slow frames, then steady ones.
  CostExplorerSettings settings;
  settings.lengths = {1024};
  CostExplorerModel model(settings, {});
  REQUIRE(
      model.apply(CostExplorerModel::Run{30000}).done());  // the naive kernel refuses T = 30,000: the tiled one runs
  const CostExplorerModel::LiveRun& run = model.runs().back();
  const KernelRun& tiled = run.race.tiled();
  for (int i = 0; i < 400 && tiled.status != KernelStatus::running; ++i) model.update(0.05f);  // its inputs made
  REQUIRE(tiled.status == KernelStatus::running);
  const std::int64_t rows0 = tiled.rows_done;
  for (int i = 0; i < 4; ++i) model.update(1.0f);
  for (int i = 0; i < 60; ++i) model.update(0.05f);
  REQUIRE(tiled.status == KernelStatus::running);
  REQUIRE(tiled.rows_done > rows0);
  const double elapsed = 4 * 1.0 + 60 * 0.05;  // since its first rows
  const double since_start =
      static_cast<double>(run.race.t() - tiled.rows_done) * elapsed / static_cast<double>(tiled.rows_done - rows0);
  const double left = model.time_left(run, false);
  CHECK(left > 0);
  CHECK(left < 0.75 * since_start);
}

TEST_CASE(
    "option_order: a permutation, the same for the same seed and check, spread over the places, and saved in the "
    "record") {
  using neuralpath::lesson::option_order;
  CHECK(option_order(0, "any", 4) == std::vector<int>{0, 1, 2, 3});  // no seed yet: the lesson's order
  std::vector<int> first_place(4, 0);
  for (std::uint32_t seed = 1; seed <= 400; ++seed) {
    std::vector<int> order = option_order(seed * 2654435761u, "first-product", 4);
    CHECK(order == option_order(seed * 2654435761u, "first-product", 4));
    std::vector<int> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    REQUIRE(sorted == std::vector<int>{0, 1, 2, 3});
    ++first_place[static_cast<std::size_t>(std::find(order.begin(), order.end(), 0) - order.begin())];
  }
  for (int n : first_place) CHECK(n > 60);  // option 0 lands in each of the 4 places about 100 times in 400
  CHECK(option_order(7, "a", 5) != option_order(7, "b", 5));
  // The seed goes into the stored record and back; a bad one is left out with a reason.
  neuralpath::lesson::Progress p;
  p.lesson = "x";
  p.order = 4000000000u;
  const auto parsed = neuralpath::lesson::parse_progress(neuralpath::lesson::serialize_progress(p));
  REQUIRE(parsed.complete());
  CHECK(parsed.progress->order == 4000000000u);
  const auto bad = neuralpath::lesson::parse_progress(R"({"v":1,"lesson":"x","order":-3})");
  REQUIRE(bad.progress);
  CHECK(bad.progress->order == 0);
  REQUIRE(bad.dropped.size() == 1);
  CHECK(bad.dropped[0].find("'order'") != std::string::npos);
}

TEST_CASE("every figure keeps its height while the page scrolls it up the screen") {
  // The page scrolls and starts its blocks on whole pixels: a figure drawn at a fraction of a
  // pixel was a pixel taller or shorter from one place on the screen to the next. (Once its top
  // has gone above the screen Dear ImGui, which rounds places toward zero, may lay its parts out
  // a pixel or two apart: "Save image" therefore draws a tall figure whole, np-share.js.)
  for (const char* lesson : {"self-attention", "multi-head"}) {
    CAPTURE(lesson);
    Headless page(375, 740, 2);
    page.load_file(std::string("lessons/") + lesson + ".md");
    page.command({{"type", "reducedMotion"}, {"reduce", true}});
    page.frames(3);
    std::map<std::string, float> height;
    for (int k = 0; k < 60; ++k) {
      const json state = page.state();
      for (const json& w : state["widgets"]) {
        const std::string id = w["id"];
        const float h = w["rect"][3].get<float>();
        if (w["rect"][1].get<float>() < 0) continue;
        CAPTURE(id);
        CAPTURE(k);
        if (height.count(id))
          CHECK(h == doctest::Approx(height[id]).epsilon(0.0001));
        else
          height[id] = h;
      }
      page.command({{"type", "scroll"}, {"by", 301.25}});
      page.frames(2);
    }
  }
}
