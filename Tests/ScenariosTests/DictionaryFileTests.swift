import Foundation
import XCTest
@testable import Scenarios
import Sim

/// Reading dictionary files: the shared format, and a clear `file:line` error for each way
/// a file can be wrong; the scenario's `typing` block.
final class DictionaryFileTests: XCTestCase {
    private var folder: TemporaryFolder!
    private var directory: String { folder.url.path }

    override func setUpWithError() throws { folder = try TemporaryFolder(prefix: "keysim-dict") }
    override func tearDown() { folder = nil }

    private func write(_ text: String, name: String = "d.tsv") throws -> String { try folder.write(name, text) }

    func testReadsEntriesAndLanguage() throws {
        let path = try write("# keysim dictionary 1\n# language: en\nthe\t5\nto\t4\ntea\t1\ntoast\t1\n")
        let dictionary = try DictionaryFile.read(path: path)
        XCTAssertEqual(dictionary.words, ["the", "to", "tea", "toast"])
        XCTAssertEqual(dictionary.counts, [5, 4, 1, 1])
        XCTAssertEqual(dictionary.language, "en")
        XCTAssertEqual(dictionary.completions(of: "t"), ["the", "to", "tea"])
    }

    func testEveryProblemNamesTheFileAndLine() throws {
        let cases: [(String, String)] = [
            ("the\t5\nto 4\n", ":2:1: error: expected 'word<TAB>count', found no tab"),
            ("the\t5\t1\n", ":1:6: error: expected 'word<TAB>count', found 2 tabs"),
            ("The\t5\n", ":1:1: error: word 'The' is not lower-cased"),
            ("the\t0\n", ":1:5: error: count '0' is not a positive integer"),
            ("the\t-3\n", ":1:5: error: count '-3' is not a positive integer"),
            ("the\tfive\n", ":1:5: error: count 'five' is not a positive integer"),
            ("\t5\n", ":1:1: error: empty word"),
            ("the\t5\nthe\t4\n", ":2:1: error: duplicate word 'the' (first on line 1)"),
            ("to\t4\nthe\t5\n", ":2:1: error: entries must be sorted by count descending, then word ascending: 'the' (5) follows 'to' (4)"),
            ("to\t4\nte\t4\n", ":2:1: error: entries must be sorted by count descending, then word ascending: 'te' (4) follows 'to' (4)"),
            ("# keysim dictionary 1\n", ": error: holds no entries ('word<TAB>count' lines)"),
            ("# keysim dictionary 2\nthe\t5\n", ":1:21: error: dictionary format version 2; this keysim reads 1"),
            ("# keysim dictionary 1.1\n", ":1:21: error: dictionary format version 1.1; this keysim reads 1"),
            ("# a word list\n# keysim dictionary 10\nthe\t5\n", ":2:21: error: dictionary format version 10; this keysim reads 1"),
            ("# keysim dictionary   3\n", ":1:23: error: dictionary format version 3; this keysim reads 1"),
            ("# keysim dictionary\nthe\t5\n", ":1:21: error: dictionary format version missing; this keysim reads 1"),
        ]
        for (text, message) in cases {
            let path = try write(text)
            XCTAssertThrowsError(try DictionaryFile.read(path: path), text) { error in
                XCTAssertEqual("\(error)", path + message, text)
            }
        }
        XCTAssertThrowsError(try DictionaryFile.read(path: directory + "/missing.tsv")) { error in
            XCTAssertEqual("\(error)", directory + "/missing.tsv: error: no such file")
        }
    }

    func testTheVersionHeaderIsOptionalAndVersionOneReads() throws {
        for text in ["the\t5\nto\t4\n", "# keysim dictionary 1\nthe\t5\nto\t4\n", "# keysim dictionary  1 \nthe\t5\nto\t4\n",
                     "# keysim dictionaries of mine\nthe\t5\nto\t4\n"] {
            XCTAssertEqual(try DictionaryFile.read(path: try write(text)).words, ["the", "to"], text)
        }
    }

    func testTheBuilderKeepsLettersAndInnerApostrophesAndHyphens() {
        var builder = DictionaryBuilder()
        builder.add("`Don’t' -- the Rabbit-Hole, 3rd time; état--x y- -z")
        XCTAssertEqual(builder.tokens, 9)
        XCTAssertEqual(builder.entries().map(\.word), ["don't", "État".lowercased(), "rabbit-hole", "rd", "the", "time", "x", "y", "z"].sorted {
            $0.utf8.lexicographicallyPrecedes($1.utf8)
        })
        let text = DictionaryFile.text(entries: builder.entries(), language: "en", sources: ["a.txt"], tokens: builder.tokens)
        XCTAssertTrue(text.hasPrefix("# keysim dictionary 1\n# language: en\n# source: a.txt\n# tokens: 9\n"))
    }

    func testTheScenarioTypingBlock() throws {
        _ = try write("the\t5\nto\t4\n", name: "en.tsv")
        let trace = directory + "/t.jsonl"
        try "{\"keysim\":\"trace\",\"version\":1}\n{\"t\":0,\"type\":\"key\",\"text\":\"a\"}\n".write(toFile: trace, atomically: true, encoding: .utf8)
        let scenario = try ScenarioLoader.parse("""
            { traces: ["t.jsonl"], typing: { dictionary: "en.tsv", suggestions: { rerankLift: 0.25 } } }
            """, path: directory + "/s.json5")
        XCTAssertEqual(scenario.keyboard.typing.dictionary?.words, ["the", "to"])
        XCTAssertEqual(scenario.keyboard.typing.rerankLift, 0.25)
        let none = try ScenarioLoader.parse("{ traces: [\"t.jsonl\"] }", path: directory + "/s.json5")
        XCTAssertNil(none.keyboard.typing.dictionary)
        XCTAssertThrowsError(try ScenarioLoader.parse("{ traces: [\"t.jsonl\"], typing: { suggestions: { rerankLift: 2 } } }",
                                                      path: directory + "/s.json5")) { error in
            XCTAssertTrue("\(error)".contains("typing.suggestions.rerankLift"), "\(error)")
        }
        XCTAssertThrowsError(try ScenarioLoader.parse("{ traces: [\"t.jsonl\"], typing: { dictionary: \"nope.tsv\" } }",
                                                      path: directory + "/s.json5")) { error in
            XCTAssertTrue("\(error)".contains("s.json5:1:46: error: typing.dictionary: \(directory)/nope.tsv: no such file"), "\(error)")
        }
        XCTAssertThrowsError(try ScenarioLoader.parse("{ traces: [\"t.jsonl\"], typing: { dictionnary: \"en.tsv\" } }",
                                                      path: directory + "/s.json5")) { error in
            XCTAssertTrue("\(error)".contains("unknown field 'dictionnary'"), "\(error)")
        }
    }

    /// A scenario is decoded once per policy; each dictionary file is read once per load, and
    /// a policy that names another dictionary gets that one, or that file's error.
    func testPoliciesOfOneLoadShareItsDictionaryReads() throws {
        _ = try write("the\t5\nto\t4\n", name: "en.tsv")
        _ = try write("und\t7\nder\t6\n", name: "de.tsv")
        let trace = try folder.write("t.jsonl", "{\"keysim\":\"trace\",\"version\":1}\n{\"t\":0,\"type\":\"key\",\"text\":\"a\"}\n")
        XCTAssertTrue(trace.hasSuffix("t.jsonl"))
        let text = """
            { traces: ["t.jsonl"], typing: { dictionary: "en.tsv" },
              policies: { a: {}, b: { debounce: { policy: "fixed", delayMs: 900 } }, de: { typing: { dictionary: "de.tsv" } } } }
            """
        let path = directory + "/s.json5"
        for policy in [nil, "a", "b"] {
            XCTAssertEqual(try ScenarioLoader.parse(text, path: path, policy: policy).keyboard.typing.dictionary?.words, ["the", "to"])
        }
        XCTAssertEqual(try ScenarioLoader.parse(text, path: path, policy: "de").keyboard.typing.dictionary?.words, ["und", "der"])
        // The cache itself: a second read of a path is the first's, even once the file is gone;
        // a failed read is not kept.
        let reads = DictionaryReads()
        let first = try reads.dictionary(at: directory + "/en.tsv")
        try FileManager.default.removeItem(atPath: directory + "/en.tsv")
        XCTAssertEqual(try reads.dictionary(at: directory + "/en.tsv").words, first.words)
        for _ in 0..<2 {
            XCTAssertThrowsError(try reads.dictionary(at: directory + "/nope.tsv")) { error in
                XCTAssertTrue("\(error)".hasSuffix("nope.tsv: error: no such file"), "\(error)")
            }
        }
        // A new load reads the file afresh: en.tsv is gone, so every policy's decode reports it.
        XCTAssertThrowsError(try ScenarioLoader.parse(text, path: path, policy: "de")) { error in
            XCTAssertTrue("\(error)".contains("typing.dictionary: \(directory)/en.tsv: no such file"), "\(error)")
        }
    }
}
