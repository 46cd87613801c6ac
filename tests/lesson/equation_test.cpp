// equation_test.cpp: the LaTeX subset becomes a tree a view can typeset.
#include "engine/lesson/equation.h"

#include <doctest/doctest.h>

using namespace neuralpath::lesson;

namespace {

EqNode tree(std::string_view latex) {
  EquationParse p = parse_equation(latex);
  REQUIRE_MESSAGE(p.errors.empty(), (p.errors.empty() ? "" : p.errors[0].message));
  REQUIRE(p.root);
  return *p.root;
}

EquationError error(std::string_view latex) {
  EquationParse p = parse_equation(latex);
  REQUIRE_FALSE(p.root);
  REQUIRE(p.errors.size() == 1);
  return p.errors[0];
}

}  // namespace

TEST_CASE("a fraction holds its numerator and denominator") {
  const EqNode t = tree("\\frac{QK^T}{\\sqrt{d_k}}");
  REQUIRE(t.children.size() == 1);
  const EqNode& f = t.children[0];
  CHECK(f.kind == EqKind::Fraction);
  REQUIRE(f.children.size() == 2);
  CHECK(f.children[0].plain() == "QKᵀ");
  CHECK(f.children[1].children[0].kind == EqKind::Root);
  CHECK(f.children[1].plain() == "√d_k");
}

TEST_CASE("scripts attach to the atom before them, both at once if needed") {
  const EqNode t = tree("x_{i}^{2} W_Q K^\\top Kᵀ");
  REQUIRE(t.children.size() == 4);
  const EqNode& s = t.children[0];
  CHECK(s.kind == EqKind::Scripts);
  CHECK(s.children[0].text == "x");
  CHECK(s.children[1].plain() == "i");
  CHECK(s.children[2].plain() == "2");
  CHECK(t.children[2].children[2].plain() == "T");
  CHECK(t.children[3].children[2].plain() == "T");
  CHECK(t.plain() == "x_i^2W_QKᵀKᵀ");
}

TEST_CASE("Greek letters, symbols and functions become Unicode glyphs") {
  CHECK(tree("\\alpha + \\Omega").plain() == "α + Ω");
  CHECK(tree("e^{-\\infty} \\to 0").plain() == "e^(−∞) → 0");
  CHECK(tree("\\exp(x) \\cdot 2").plain() == "exp(x)·2");
  CHECK(tree("\\mathcal{O}(T^2)").children[0].style == EqStyle::Calligraphic);
  CHECK(tree("x \\in \\mathbb{R}^d").plain() == "x ∈ ℝ^d");
}

TEST_CASE("styles wrap their body: bold vectors, upright text") {
  const EqNode t = tree("\\mathbf{q} = \\text{soft max}(x)");
  CHECK(t.children[0].kind == EqKind::Styled);
  CHECK(t.children[0].style == EqStyle::Bold);
  CHECK(t.children[2].kind == EqKind::Text);
  CHECK(t.children[2].text == "soft max");
}

TEST_CASE("\\left and \\right make one fenced group") {
  const EqNode t = tree("\\left( \\frac{a}{b} \\right)");
  REQUIRE(t.children.size() == 1);
  CHECK(t.children[0].kind == EqKind::Fenced);
  CHECK(t.children[0].text == "(");
  CHECK(t.children[0].close == ")");
  CHECK(tree("\\left. x \\right|").children[0].text.empty());
}

TEST_CASE("numbers keep their decimal point and their digits together") {
  const EqNode t = tree("0.76 + 10^{10}");
  CHECK(t.children[0].kind == EqKind::Number);
  CHECK(t.children[0].text == "0.76");
}

TEST_CASE("each kind of equation error has its byte offset") {
  CHECK(error("a + \\bogus").offset == 4);
  CHECK(error("{a").offset == 0);
  CHECK(error("a}").offset == 1);
  CHECK(error("\\frac{a}").message.find("needs an argument") != std::string::npos);
  CHECK(error("\\sqrt").offset == 0);
  CHECK(error("x^").offset == 1);
  CHECK(error("x_1_2").offset == 3);
  CHECK(error("\\left( a").message == "\\left has no matching \\right");
  CHECK(error("a \\right)").offset == 2);
  CHECK(error("\\left< a \\right>").offset == 5);
  CHECK(error("a & b").offset == 2);
  CHECK(error("50%").offset == 2);
  CHECK(error("").message == "the equation is empty");
}
