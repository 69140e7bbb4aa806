import XCTest
@testable import Sim

/// The worked example of `docs/models.md` ("Typing quality"), checked exactly, and the
/// dictionary's per-prefix bars.
final class TypingQualityTests: XCTestCase {
    /// The example dictionary: the 50, to 40, this 30, they 20, then 10, tea 5, toast 2.
    static let dictionary = WordDictionary(entries: [("toast", 2), ("the", 50), ("to", 40), ("this", 30), ("they", 20),
                                                     ("then", 10), ("tea", 5)], language: "en")

    /// "they toast ok" typed a key every 100 ms, except `e` only 10 ms after `h`.
    static let typed: [(ms: Double, text: String)] = [
        (0, "t"), (100, "h"), (110, "e"), (200, "y"), (300, " "), (400, "t"), (500, "o"), (600, "a"), (700, "s"), (800, "t"),
        (900, " "), (1000, "o"), (1100, "k"),
    ]

    /// Constant costs: key 2 ms, lookup 4 ms, re-rank 20 ms, draw 1 ms, check 3 ms.
    func config(lift: Double) -> KeyboardConfig {
        var config = KeyboardConfig()
        config.work[.key]!.cost = .constant(2)
        config.work[.lookup]!.cost = .constant(4)
        config.work[.rerank]!.cost = .constant(20)
        config.work[.draw]!.cost = .constant(1)
        config.work[.check]!.cost = .constant(3)
        config.typing.dictionary = Self.dictionary
        config.typing.rerankLift = lift
        return config
    }

    func run(lift: Double, intended: String? = "they toast ok", seed: UInt64 = 1) throws -> TypingQuality {
        var source = ArrayTraceSource(Self.typed.map {
            TraceEvent(time: SimTime(milliseconds: $0.ms), kind: .key(text: $0.text, touchUp: nil, point: nil))
        })
        var sink = ObservationBuffer()
        var simulation = KeyboardSimulation(config: config(lift: lift), seed: seed, replication: 0,
                                            header: TraceHeader(intendedText: intended))
        return try XCTUnwrap(try simulation.run(&source, into: &sink).typingQuality)
    }

    /// The one-byte step down the trie after a typed letter or digit gives the bars the full
    /// walk from the root gives, whatever is typed around it (punctuation, capitals, emoji,
    /// backspaces, pastes).
    func testExtendingTheBarByOneByteMatchesTheFullWalk() {
        var rng = RandomStream(seed: 9, replication: 0, name: "test.typing")
        let pieces = ["t", "h", "e", "y", "o", "a", "s", "T", "1", " ", " ", ".", ",", "(", "'", "é", "🙂", "\n"]
        var text = TextBuffer()
        var stepped = SuggestionQuality(dictionary: Self.dictionary, rerankLift: 0.5,
                                        lifts: RandomStream(seed: 1, replication: 0, name: "lift"), intendedText: nil)
        var walked = stepped
        for key in 0..<5_000 {
            var typed: UInt8?
            switch rng.nextInt(below: 10) {
            case 0: text.deleteBackward()
            case 1: text.insert("to(")
            default:
                let piece = pieces[rng.nextInt(below: pieces.count)]
                text.insert(piece)
                if piece.utf8.count == 1, let byte = piece.utf8.first, byte < 0x80 { typed = byte }
            }
            stepped.editLanded(keyIndex: key, text: text, insertedASCII: typed)
            walked.editLanded(keyIndex: key, text: text)
            if key % 3 == 0 { stepped.barShown(keyIndex: key, inTime: true); walked.barShown(keyIndex: key, inTime: true) }
        }
        XCTAssertEqual(stepped.bars, walked.bars)
        XCTAssertGreaterThan(walked.bars.filter { $0.prefixLength >= 2 && $0.node != WordDictionary.none }.count, 100)
        XCTAssertEqual(stepped.finish(finalText: text, keystrokes: 5_000), walked.finish(finalText: text, keystrokes: 5_000))
        XCTAssertGreaterThan(walked.finish(finalText: text, keystrokes: 5_000)?.wordsPredicted ?? 0, 0)
    }

    func testTheDictionaryRanksByCountAndKeepsTheTopThreeOfEveryPrefix() {
        let d = Self.dictionary
        XCTAssertEqual(d.words, ["the", "to", "this", "they", "then", "tea", "toast"])
        XCTAssertEqual(d.completions(of: ""), ["the", "to", "this"])
        XCTAssertEqual(d.completions(of: "t"), ["the", "to", "this"])
        XCTAssertEqual(d.completions(of: "th"), ["the", "this", "they"])
        XCTAssertEqual(d.completions(of: "the"), ["the", "they", "then"])
        XCTAssertEqual(d.completions(of: "to"), ["to", "toast"])
        XCTAssertEqual(d.completions(of: "x"), [])
        XCTAssertEqual(d.rank(of: "toast"), 6)
        XCTAssertNil(d.rank(of: "toa"))
        XCTAssertNil(d.rank(of: "ok"))
        let to = d.node(forUTF8: "to".utf8)
        XCTAssertTrue(d.isCompletion(rank: 6, of: to))
        XCTAssertTrue(d.isCompletion(rank: 1, of: to))
        XCTAssertFalse(d.isCompletion(rank: 0, of: to))
        XCTAssertFalse(d.isCompletion(rank: 6, of: d.node(forUTF8: "th".utf8)))
    }

    /// A dictionary wide enough that many nodes get dense rows (the root, every one-letter
    /// prefix), with non-ASCII letters that fall back to the edge scan, checked against a
    /// brute-force search of the word list.
    func testWideNodesAnswerAsTheWordListDoes() {
        var rng = RandomStream(seed: 4, replication: 0, name: "test.dictionary")
        let letters = Array("abcdefghijklmnopqrstuvwxyzé")
        var entries: [String: Int] = [:]
        while entries.count < 2_000 {
            let word = String((0..<(1 + rng.nextInt(below: 4))).map { _ in letters[rng.nextInt(below: letters.count)] })
            entries[word] = entries[word] ?? (1 + rng.nextInt(below: 1_000))
        }
        let dictionary = WordDictionary(entries: entries.map { ($0.key, $0.value) })
        XCTAssertGreaterThan(dictionary.count, 1_000)
        for (rank, word) in dictionary.words.enumerated() { XCTAssertEqual(dictionary.rank(of: word), Int32(rank), word) }
        XCTAssertNil(dictionary.rank(of: "zzzzz"))
        XCTAssertNil(dictionary.rank(of: "ab!"))
        var prefixes: Set<String> = ["", "q", "é", "éé", "aé", "zz"]
        for word in dictionary.words.prefix(300) { for length in 0...word.count { prefixes.insert(String(word.prefix(length))) } }
        for prefix in prefixes {
            let expected = Array(dictionary.words.filter { $0.utf8.starts(with: prefix.utf8) }.prefix(WordDictionary.barSize))
            XCTAssertEqual(dictionary.completions(of: prefix), expected, prefix)
            // A node's subtree holds exactly the words its prefix starts.
            let node = dictionary.node(forUTF8: prefix.utf8)
            guard node != WordDictionary.none else { continue }
            for rank in stride(from: 0, to: dictionary.count, by: 7) {
                XCTAssertEqual(dictionary.isCompletion(rank: Int32(rank), of: node),
                               dictionary.words[rank].utf8.starts(with: prefix.utf8), "\(dictionary.words[rank]) under \(prefix)")
            }
        }
    }

    func testWorkedExampleWithoutTheReRanker() throws {
        let quality = try run(lift: 0)
        XCTAssertEqual(quality.keystrokes, 13)
        XCTAssertEqual(quality.words, [
            // "they": the bar for "th" holds it (p = 2) but is superseded by "e" 10 ms later;
            // the bar for "the" (p = 3) is on screen in time.
            WordQuality(ordinal: 0, intendedLength: 4, keystrokes: 4, inDictionary: true, firstInBarPrefix: 2, firstInBarInTimePrefix: 3),
            // "toast": the bar for "to" holds it.
            WordQuality(ordinal: 1, intendedLength: 5, keystrokes: 5, inDictionary: true, firstInBarPrefix: 2, firstInBarInTimePrefix: 2),
            // "ok" is not in the dictionary.
            WordQuality(ordinal: 2, intendedLength: 2, keystrokes: 2, inDictionary: false, firstInBarPrefix: nil, firstInBarInTimePrefix: nil),
        ])
        XCTAssertEqual(quality.keystrokesSaved, 3)
        XCTAssertEqual(quality.keystrokesSavedInTime, 2)
        XCTAssertEqual(try XCTUnwrap(quality.keystrokeSavings), 3.0 / 13, accuracy: 1e-12)          // 23.1 %
        XCTAssertEqual(try XCTUnwrap(quality.keystrokeSavingsInTime), 2.0 / 13, accuracy: 1e-12)    // 15.4 %
        XCTAssertEqual(try XCTUnwrap(quality.wordPredictionRate), 2.0 / 3, accuracy: 1e-12)         // 66.7 %
    }

    func testWorkedExampleWithAReRankerThatAlwaysLifts() throws {
        let quality = try run(lift: 1)
        // "they" is a candidate of "t" (p = 1), "toast" of "" right after the space (p = 0).
        XCTAssertEqual(quality.words.map(\.firstInBarPrefix), [1, 0, nil])
        XCTAssertEqual(quality.words.map(\.firstInBarInTimePrefix), [1, 0, nil])
        XCTAssertEqual(quality.keystrokesSaved, 2 + 4)
        XCTAssertEqual(try XCTUnwrap(quality.keystrokeSavings), 6.0 / 13, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(quality.wordPredictionRate), 2.0 / 3, accuracy: 1e-12)
    }

    func testWithoutIntendedTextTheFinalWordsStandAsIntended() throws {
        XCTAssertEqual(try run(lift: 0, intended: nil), try run(lift: 0))
        XCTAssertEqual(try run(lift: 0.5, intended: nil, seed: 9), try run(lift: 0.5, seed: 9))
    }

    func testTheLiftIsDeterministicAndOnlyEverRaisesTheBar() throws {
        for seed in UInt64(1)...20 {
            let a = try run(lift: 0.5, seed: seed)
            XCTAssertEqual(a, try run(lift: 0.5, seed: seed), "seed \(seed)")
            XCTAssertGreaterThanOrEqual(a.keystrokesSaved, try run(lift: 0, seed: seed).keystrokesSaved, "seed \(seed)")
            XCTAssertLessThanOrEqual(a.keystrokesSaved, try run(lift: 1, seed: seed).keystrokesSaved, "seed \(seed)")
        }
    }

    func testUpperCaseTypingMatchesTheLowerCaseDictionary() throws {
        var source = ArrayTraceSource([(0.0, "T"), (100, "H"), (200, "E"), (300, "Y")].map {
            TraceEvent(time: SimTime(milliseconds: $0.0), kind: .key(text: $0.1, touchUp: nil, point: nil))
        })
        var sink = ObservationBuffer()
        var simulation = KeyboardSimulation(config: config(lift: 0), seed: 1, replication: 0)
        let quality = try XCTUnwrap(try simulation.run(&source, into: &sink).typingQuality)
        XCTAssertEqual(quality.words.map(\.firstInBarPrefix), [2])
    }

    /// A trace of messages: the header's text is the whole trace's, and the trace opens its
    /// first field before any key. The words are numbered from the first field's first word,
    /// through the fields, whatever the header holds.
    func testWordsOfFieldsAreNumberedFromTheFirstFieldNotAfterTheHeader() throws {
        func key(_ ms: Double, _ text: String) -> TraceEvent {
            TraceEvent(time: SimTime(milliseconds: ms), kind: .key(text: text, touchUp: nil, point: nil))
        }
        func quality(header: String?) throws -> TypingQuality {
            var source = ArrayTraceSource([
                TraceEvent(time: .zero, kind: .field(FieldChange(.opened, intendedText: "they toast"))),
                key(100, "t"), key(200, "h"), key(300, "e"), key(400, "y"), key(500, " "),
                key(600, "t"), key(700, "o"), key(800, "a"), key(900, "s"), key(1000, "t"),
                TraceEvent(time: SimTime(milliseconds: 2000), kind: .field(FieldChange(.cleared, intendedText: "then ok"))),
                key(2100, "t"), key(2200, "h"), key(2300, "e"), key(2400, "n"),
            ])
            var sink = ObservationBuffer()
            var simulation = KeyboardSimulation(config: config(lift: 0), seed: 1, replication: 0,
                                                header: header.map { TraceHeader(intendedText: $0) })
            return try XCTUnwrap(try simulation.run(&source, into: &sink).typingQuality)
        }
        let words = try quality(header: "they toast\nthen ok").words
        // "they" and "toast" of the first field, "then" of the second ("ok" is never reached).
        XCTAssertEqual(words.map(\.ordinal), [0, 1, 2])
        XCTAssertEqual(words.map(\.intendedLength), [4, 5, 4])
        XCTAssertEqual(try quality(header: nil), try quality(header: "they toast\nthen ok"))
        XCTAssertEqual(try quality(header: "a header of another text altogether"), try quality(header: nil))
    }

    /// A key typed against the header's text before the trace opens a field makes the
    /// header's text a field like any other: its words come first.
    func testTheHeadersWordsCountOnceTypedIn() throws {
        var source = ArrayTraceSource([
            TraceEvent(time: .zero, kind: .key(text: "o", touchUp: nil, point: nil)),
            TraceEvent(time: SimTime(milliseconds: 100), kind: .key(text: "k", touchUp: nil, point: nil)),
            TraceEvent(time: SimTime(milliseconds: 1000), kind: .field(FieldChange(.cleared, intendedText: "the"))),
            TraceEvent(time: SimTime(milliseconds: 1100), kind: .key(text: "t", touchUp: nil, point: nil)),
        ])
        var sink = ObservationBuffer()
        var simulation = KeyboardSimulation(config: config(lift: 0), seed: 1, replication: 0,
                                            header: TraceHeader(intendedText: "ok then"))
        let quality = try XCTUnwrap(try simulation.run(&source, into: &sink).typingQuality)
        // "ok" (0) of the header's two words, then "the" (2).
        XCTAssertEqual(quality.words.map(\.ordinal), [0, 2])
    }

    func testNoDictionaryNoQuality() throws {
        var source = ArrayTraceSource([TraceEvent(time: .zero, kind: .key(text: "a", touchUp: nil, point: nil))])
        var sink = ObservationBuffer()
        var simulation = KeyboardSimulation(config: KeyboardConfig(), seed: 1, replication: 0)
        XCTAssertNil(try simulation.run(&source, into: &sink).typingQuality)
    }
}
