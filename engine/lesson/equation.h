// equation.h: a small LaTeX subset parsed into a tree the UI can typeset.
//
// Supported (everything else is an error with its position):
//   letters and digits        x, d_k, 0.76          (letters italic, digits upright)
//   operators and brackets    + - = < > , ; : ! ' / | ( ) [ ]   and Unicode − × · → ≤ ≥ ∞ ᵀ
//   groups                    {a+b}
//   scripts                   x_i  x^2  x_{ij}^{T}  Kᵀ  K^\top  (base may be empty: _i)
//   fractions and roots       \frac{a}{b} \dfrac \tfrac   \sqrt{x} \sqrt[n]{x}
//   Greek                     \alpha … \omega, \Gamma … \Omega (also \varepsilon, \varphi)
//   styles                    \mathbf{Q} \boldsymbol \mathrm \mathcal{O} \mathbb{R} \text{softmax}
//                             \operatorname{softmax}
//   functions (upright)       \exp \log \ln \max \min \sin \cos \tanh \arg \lim \sum \prod
//   delimiters                \left( … \right)  with ( ) [ ] \{ \} | . \langle \rangle \lvert \rvert
//   symbols                   \cdot \times \div \pm \infty \to \rightarrow \leftarrow \Rightarrow
//                             \le \leq \ge \geq \ne \neq \approx \sim \in \top \ldots \cdots \dots
//                             \odot \otimes \propto \partial \nabla \forall \mid \% \{ \} \_
//   spacing                   \, \; \: \! \quad \qquad and "\ "
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace neuralpath::lesson {

enum class EqKind {
  Row,         // children laid out left to right
  Identifier,  // a variable: text in italic (unless style says otherwise)
  Number,      // digits and decimal point, upright
  Operator,    // + − = ( ) , → … and function names (\exp, \max): upright, spaced by the UI
  Text,        // \text{...}: upright words, spaces kept
  Space,       // text holds the width in em ("0.17", "1", "2"; negative for \!)
  Fraction,    // children: {numerator, denominator}
  Root,        // children: {radicand} or {radicand, index}
  Scripts,     // children: {base, subscript, superscript}; an absent script is an empty Row
  Fenced,      // text = left delimiter, close = right delimiter ("" for "."); children: {body}
  Styled,      // style applies to children: {body}
};

enum class EqStyle { Normal, Bold, Roman, Calligraphic, DoubleStruck };

struct EqNode {
  EqKind kind = EqKind::Row;
  std::string text;   // glyphs in UTF-8 (Greek and symbols converted)
  std::string close;  // Fenced: the right delimiter
  EqStyle style = EqStyle::Normal;
  std::size_t offset = 0;  // byte offset in the LaTeX source
  std::vector<EqNode> children;

  bool empty() const { return kind == EqKind::Row && children.empty(); }
  std::string plain() const;  // linear text for narration and the DOM mirror
};

struct EquationError {
  std::size_t offset = 0;  // byte offset in the LaTeX source
  std::string message;
};

struct EquationParse {
  std::optional<EqNode> root;         // set when parsing succeeded
  std::vector<EquationError> errors;  // the first error stops the parse
};

EquationParse parse_equation(std::string_view latex);

}  // namespace neuralpath::lesson
