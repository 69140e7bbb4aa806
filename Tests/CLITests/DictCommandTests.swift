import Foundation
@testable import Report
import XCTest

/// `keysim dict build` end to end, the bundled dictionary, and the typing-quality rows a run
/// with a dictionary writes.
final class DictCommandTests: XCTestCase {
    func testBuildCountsWordsAndWritesTheSharedFormat() throws {
        let folder = try TemporaryFolder()
        let text = folder.path("a.txt")
        try folder.write("a.txt", "The cat and the dog. THE END -- don't stop; rabbit-hole 42 the\n")
        let out = folder.path("d.tsv")
        let result = try KeysimProcess.run(["dict", "build", text, "--out", out, "--language", "en"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "keysim dict build: 8 words from 11 tokens in 1 file(s) -> \(out)\n")
        XCTAssertEqual(try String(contentsOfFile: out, encoding: .utf8), """
            # keysim dictionary 1
            # language: en
            # source: a.txt
            # tokens: 11
            the\t4
            and\t1
            cat\t1
            dog\t1
            don't\t1
            end\t1
            rabbit-hole\t1
            stop\t1

            """)
        let limited = try KeysimProcess.run(["dict", "build", text, "--out", out, "--min-count", "2"])
        XCTAssertEqual(limited.status, 0, limited.stderr)
        XCTAssertTrue(try String(contentsOfFile: out, encoding: .utf8).hasSuffix("# tokens: 11\nthe\t4\n"))
        XCTAssertEqual(try KeysimProcess.run(["dict", "build", text, "--out", out, "--max-words", "2"]).status, 0)
        XCTAssertTrue(try String(contentsOfFile: out, encoding: .utf8).hasSuffix("the\t4\nand\t1\n"))
    }

    func testBuildReportsBadInputWithExitCode2() throws {
        let folder = try TemporaryFolder()
        let out = folder.path("d.tsv")
        let missing = try KeysimProcess.run(["dict", "build", folder.path("nope.txt"), "--out", out])
        XCTAssertEqual(missing.status, 2)
        XCTAssertEqual(missing.stderr, "\(folder.path("nope.txt")): error: no such file\n")
        let empty = try folder.write("empty.txt", "123 -- 456\n")
        let noWords = try KeysimProcess.run(["dict", "build", empty, "--out", out])
        XCTAssertEqual(noWords.status, 2)
        XCTAssertEqual(noWords.stderr, "\(empty): error: no words in the input\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        let noOut = try KeysimProcess.run(["dict", "build", empty])
        XCTAssertEqual(noOut.status, 2)
        XCTAssertTrue(noOut.stderr.hasPrefix("keysim dict build: error: missing --out <FILE>\n"), noOut.stderr)
        // Option errors name the subcommand and point at its own help, which lists its options.
        let bogus = try KeysimProcess.run(["dict", "build", empty, "--out", out, "--bogus"])
        XCTAssertEqual(bogus.status, 2)
        XCTAssertEqual(bogus.stderr, """
            keysim dict build: error: unknown option '--bogus'
            Usage: keysim dict build <text>... --out FILE [--language TAG] [--min-count N] [--max-words N]  (see 'keysim dict build --help')

            """)
        let badCount = try KeysimProcess.run(["dict", "build", empty, "--out", out, "--min-count", "0"])
        XCTAssertEqual(badCount.status, 2)
        XCTAssertTrue(badCount.stderr.hasPrefix("keysim dict build: error: --min-count must be a whole number from 1 to 2147483647, not '0'\n"), badCount.stderr)
        let unknown = try KeysimProcess.run(["dict", "shrink"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.hasPrefix("keysim dict: error: unknown subcommand 'shrink' (expected build)\n"), unknown.stderr)
    }

    func testHelpListsTheOptions() throws {
        let help = try KeysimProcess.run(["dict", "build", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.hasPrefix("OVERVIEW: Count the words of texts into a dictionary file (word<TAB>count).\n"))
        for option in ["--out <FILE>", "--language <TAG>", "--min-count <N>", "--max-words <N>"] {
            XCTAssertTrue(help.stdout.contains(option), option)
        }
        XCTAssertTrue(try KeysimProcess.run(["--help"]).stdout.contains("  dict        Word-frequency dictionaries"))
    }

    func testTheBundledDictionaryIsRebuiltByteForByteFromItsSources() throws {
        let folder = try TemporaryFolder()
        let out = folder.path("en.tsv")
        let sources = ["alice29.txt.zst", "lcet10.txt.zst", "asyoulik.txt.zst", "plrabn12.txt.zst"].map { "source/" + $0 }
        let dictionaries = KeysimProcess.packageRoot.appendingPathComponent("dictionaries")
        let result = try KeysimProcess.run(["dict", "build"] + sources + ["--out", out, "--language", "en"], in: dictionaries)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out)),
                       try Data(contentsOf: dictionaries.appendingPathComponent("en.tsv")))
    }

    func testARunWithADictionaryWritesWordRowsAndPrintsTheQualityLine() throws {
        let folder = try TemporaryFolder()
        let db = folder.path("r.sqlite")
        let run = try KeysimProcess.run(["run", "scenarios/reranker.json5", "--replications", "2", "--db", db])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("\nquality      keystroke savings "), run.stdout)
        let store = try ReportStore(path: db, readOnly: true)
        let rows = try store.database.query("SELECT COUNT(*), COUNT(DISTINCT run_id) FROM words")
        XCTAssertGreaterThan(rows[0][0].integerValue, 0)
        XCTAssertEqual(rows[0][1].integerValue, 6)
        let metrics = try store.database.query("""
            SELECT metric, COUNT(*) FROM run_metrics WHERE metric IN ('keystroke_savings', 'keystroke_savings_in_time', 'word_prediction_rate')
            GROUP BY metric ORDER BY metric
            """)
        XCTAssertEqual(metrics.map { $0[1].integerValue }, [6, 6, 6])
        // The same run again gives the same rows (determinism).
        let db2 = folder.path("r2.sqlite")
        XCTAssertEqual(try KeysimProcess.run(["run", "scenarios/reranker.json5", "--replications", "2", "--db", db2]).status, 0)
        let words = "SELECT run_id, word_ordinal, intended_length, keystrokes, first_in_bar_prefix, first_in_bar_in_time_prefix, in_dictionary FROM words ORDER BY 1, 2"
        XCTAssertEqual(try store.database.query(words), try ReportStore(path: db2, readOnly: true).database.query(words))
        let csv = try KeysimProcess.run(["report", db, "--format", "md"])
        XCTAssertTrue(csv.stdout.contains("<details><summary>Typing quality (1 row)</summary>"), csv.stdout)
    }
}
