import Foundation
import XCTest
import Sim
@testable import Scenarios

/// `typing.touch` in scenario files and the dictionary files it reads.
final class TouchConfigTests: XCTestCase {
    let dictionary = "# keysim dictionary 1\n# language: en\nab\t3\nb\t2\nac\t1\n"

    func testTouchSectionBuildsThePredictorFromTheDictionary() throws {
        let fixture = try ScenarioFixture()
        try fixture.write("d.tsv", dictionary)
        let path = try fixture.write("s.json5", """
        {traces: ['trace.jsonl'], typing: {touch: {enabled: true, layout: 'qwerty', maxShiftPt: 5, fullShiftProbability: 0.8,
                                                   predictorOrder: 2, dictionary: 'd.tsv'}}}
        """)
        let touch = try ScenarioLoader.load(path: path).keyboard.touch
        XCTAssertTrue(touch.enabled)
        XCTAssertEqual(touch.maxShiftPoints, 5)
        XCTAssertEqual(touch.fullShiftProbability, 0.8)
        XCTAssertEqual(touch.predictor, NextLetterPredictor(words: [("ab", 3), ("b", 2), ("ac", 1)], order: 2))
        XCTAssertEqual(try ScenarioLoader.load(path: try fixture.write("off.json5", "{traces: ['trace.jsonl']}")).keyboard.touch,
                       TouchConfig())
    }

    func testBadTouchFieldsNameTheirPath() throws {
        let fixture = try ScenarioFixture()
        try fixture.write("d.tsv", dictionary)
        try fixture.write("bad.tsv", "ab\t3\nac\tmany\n")
        try fixture.write("untabbed.tsv", "ab 3\n")
        let cases: [(String, String)] = [
            ("{traces: ['trace.jsonl'], typing: {touch: {enabled: true}}}", "typing.touch: enabled needs a dictionary"),
            ("{traces: ['trace.jsonl'], typing: {touch: {maxShiftPt: 20, dictionary: 'd.tsv'}}}", "typing.touch.maxShiftPt: must be between 0 and 16.5"),
            ("{traces: ['trace.jsonl'], typing: {touch: {predictorOrder: 5, dictionary: 'd.tsv'}}}", "typing.touch.predictorOrder: must be between 1 and 4"),
            ("{traces: ['trace.jsonl'], typing: {touch: {layout: 'dvorak'}}}", "typing.touch.layout: unknown value 'dvorak'"),
            ("{traces: ['trace.jsonl'], typing: {touch: {maxShift: 3}}}", "typing.touch.maxShift: unknown field 'maxShift'"),
            ("{traces: ['trace.jsonl'], typing: {touh: {}}}", "typing.touh: unknown field 'touh'"),
            ("{traces: ['trace.jsonl'], typing: {touch: {dictionary: 'none.tsv'}}}", "error: typing.touch.dictionary: "),
            ("{traces: ['trace.jsonl'], typing: {touch: {dictionary: 'bad.tsv'}}}", "error: typing.touch.dictionary: \(fixture.directory)/bad.tsv:2:4: count 'many' is not a positive integer"),
            ("{traces: ['trace.jsonl'], typing: {touch: {dictionary: 'untabbed.tsv'}}}", "untabbed.tsv:1:1: expected 'word<TAB>count', found no tab"),
        ]
        for (text, expected) in cases {
            guard let error = try fixture.loadError(text) else { XCTFail("accepted: \(text)"); continue }
            XCTAssertTrue(error.description.contains(expected), "\(text)\n got: \(error)\n want: \(expected)")
            // One diagnostic, one "error:": the dictionary's own position is quoted inside it.
            XCTAssertEqual(error.description.components(separatedBy: "error:").count, 2, "\(error)")
        }
    }

    func testTheBundledScenarioBuildsThePredictorFromTheBundledDictionary() throws {
        let root = PackageRoot.url
        let words = try DictionaryFile.read(path: root.appendingPathComponent("dictionaries/en.tsv").path)
        XCTAssertGreaterThan(words.count, 200)
        XCTAssertEqual(words.words.first, "the")
        // The reader accepts only files sorted by count descending, then word ascending.
        XCTAssertEqual(words.counts, words.counts.sorted(by: >))
        let scenario = root.appendingPathComponent("scenarios/touch-boundaries.json5").path
        XCTAssertEqual(try ScenarioLoader.load(path: scenario, policy: "no-shift").keyboard.touch.maxShiftPoints, 0)
        let slow = try ScenarioLoader.load(path: scenario, policy: "slow-predictor").keyboard
        XCTAssertEqual(slow.config(for: .predict).thread, "model")
        XCTAssertEqual(slow.touch.predictor, NextLetterPredictor(words: zip(words.words, words.counts).map { (word: $0, count: $1) },
                                                                 order: 3), "typing.dictionary feeds the predictor")
    }
}
