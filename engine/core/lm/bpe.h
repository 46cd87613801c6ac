// bpe.h: a byte-level BPE tokenizer (byte pair encoding, as GPT-2's, on raw bytes).
//
// Ids:  0..255   the 256 bytes themselves, so ANY byte string has an encoding
//       256      the document token: training puts it before every document; text never
//                encodes to it, and it decodes to nothing
//       257..    one per merge, in the order training learned them: merge i joins two earlier
//                ids (a, b) into id 257 + i, whose bytes are a's then b's
// decode(encode(x)) == x for every byte string x (UTF-8 or not, NULs included): encoding only
// ever joins neighbouring pieces of x, and decoding concatenates their bytes.
//
// Before merging, text is cut into chunks and merges never cross a chunk's edge (as GPT-2's
// pre-tokenizer does, so a token never spans two words): a chunk is a run of letters (ASCII
// letters and every byte >= 0x80, so UTF-8 letters such as ñ or é stay whole) or of digits,
// with at most one space before it; or a run of other bytes of one kind (spaces; punctuation).
//
// Training is deterministic: at each step the most frequent pair of neighbouring ids within
// chunks (counted with each distinct chunk's frequency) is merged; ties go to the smaller pair
// (a first, then b). Chunks are counted in a sorted map, so the result depends on the text only.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace neuralpath::lm {

inline constexpr int kByteTokens = 256;
inline constexpr int kDocumentToken = 256;
inline constexpr int kFirstMerge = 257;
// The longest token, in bytes. Each merge joins two earlier tokens, so without a bound a list of
// n merges could name a token of 2^n bytes (a damaged or hostile model file asking for more
// memory than exists); training never learns a longer one (it skips such pairs), and
// from_merges refuses them.
inline constexpr std::size_t kMaxTokenBytes = 256;

class BpeTokenizer {
 public:
  BpeTokenizer();  // bytes and the document token only (vocab_size 257)

  // Learns vocab_size − 257 merges from `text` (fewer if the text runs out of pairs that occur
  // at least twice). Throws InputError for vocab_size outside 257..65536.
  static BpeTokenizer train(std::string_view text, int vocab_size);
  // From a list of merges (a model file). Throws InputError if a merge names an id not made yet
  // or makes a token longer than kMaxTokenBytes.
  static BpeTokenizer from_merges(std::vector<std::pair<int, int>> merges);

  std::vector<int> encode(std::string_view text) const;
  std::string decode(const std::vector<int>& ids) const;  // ids out of range: InputError
  const std::string& token_bytes(int id) const;           // the bytes one id stands for

  int vocab_size() const { return kFirstMerge + static_cast<int>(merges_.size()); }
  const std::vector<std::pair<int, int>>& merges() const { return merges_; }

  // The chunks `text` is cut into before merging (see the top of the file), as views into it.
  static std::vector<std::string_view> chunks(std::string_view text);

 private:
  void build_tables();
  std::vector<int> encode_chunk(std::string_view chunk) const;

  std::vector<std::pair<int, int>> merges_;
  std::vector<std::string> bytes_;        // per id
  std::vector<std::uint64_t> rank_keys_;  // sorted (a << 32 | b) of every merge
  std::vector<int> rank_ids_;             // the merge's id, same order as rank_keys_
};

}  // namespace neuralpath::lm
