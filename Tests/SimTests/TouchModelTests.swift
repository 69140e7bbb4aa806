import XCTest
@testable import Sim

/// The touch model: hit-testing on the reference layout, boundary shifts towards the
/// predicted key, the next-letter predictor's exact probabilities, and predictions that are
/// ready or late for the next touch.
final class TouchModelTests: XCTestCase {
    let geometry = TouchGeometry(.qwerty)

    func index(_ label: String) -> Int { geometry.keyIndex(label: label)! }

    func testEveryKeyCentreHitsItsKeyAndBoundariesGoRightAndDown() {
        for (i, key) in geometry.keys.enumerated() {
            XCTAssertEqual(geometry.plainHit(key.center), i, key.label)
        }
        // q spans [0, 33), w [33, 66): the boundary itself belongs to w.
        XCTAssertEqual(geometry.plainHit(TouchPoint(x: 32.99, y: 27)), index("q"))
        XCTAssertEqual(geometry.plainHit(TouchPoint(x: 33, y: 27)), index("w"))
        // Row 0 spans y [0, 54), row 1 [54, 108).
        XCTAssertEqual(geometry.plainHit(TouchPoint(x: 40, y: 53.99)), index("w"))
        XCTAssertEqual(geometry.plainHit(TouchPoint(x: 40, y: 54)), index("a"))
        // In the gap between shift [0, 42) and z [49.5, 82.5): the nearer one.
        XCTAssertEqual(geometry.plainHit(TouchPoint(x: 45, y: 135)), index("[shift]"))
        XCTAssertEqual(geometry.plainHit(TouchPoint(x: 46, y: 135)), index("z"))
        // Outside the view: the nearest key.
        XCTAssertEqual(geometry.plainHit(TouchPoint(x: -10, y: 27)), index("q"))
        XCTAssertEqual(geometry.plainHit(TouchPoint(x: 400, y: -5)), index("p"))
        XCTAssertEqual(geometry.keyIndex(typing: "Q"), index("q"))
        XCTAssertEqual(geometry.keyIndex(typing: " "), geometry.spaceIndex)
        XCTAssertNil(geometry.keyIndex(typing: "qu"))
    }

    func testShiftMovesBoundariesExactlyTowardsTheNeighboursOnly() {
        let drawn = geometry.rectangles
        // q favoured by 7 pt: its right boundary moves from 33 to 40 (40 itself is w's).
        XCTAssertEqual(geometry.hit(TouchPoint(x: 39.99, y: 27), favouring: index("q"), shift: 7), index("q"))
        XCTAssertEqual(geometry.hit(TouchPoint(x: 40, y: 27), favouring: index("q"), shift: 7), index("w"))
        // w favoured: its left boundary moves from 33 to 26.
        XCTAssertEqual(geometry.hit(TouchPoint(x: 26, y: 27), favouring: index("w"), shift: 7), index("w"))
        XCTAssertEqual(geometry.hit(TouchPoint(x: 25.99, y: 27), favouring: index("w"), shift: 7), index("q"))
        // a favoured: its top boundary moves from 54 up to 47, into the row above.
        XCTAssertEqual(geometry.plainHit(TouchPoint(x: 33, y: 50)), index("w"))
        XCTAssertEqual(geometry.hit(TouchPoint(x: 33, y: 47), favouring: index("a"), shift: 7), index("a"))
        XCTAssertEqual(geometry.hit(TouchPoint(x: 33, y: 46.99), favouring: index("a"), shift: 7), index("w"))
        // q has no key to its left or above: those edges face nothing and stay put.
        XCTAssertEqual(geometry.facingSides[index("q")], [.right, .bottom])
        XCTAssertEqual(geometry.rectangle(index("q"), grownBy: 7),
                       TouchGeometry.Rectangle(minX: 0, maxX: 40, minY: 0, maxY: 61))
        // A shift of 0 is the plain layout; the drawn rectangles never change.
        XCTAssertEqual(geometry.hit(TouchPoint(x: 33, y: 27), favouring: index("q"), shift: 0), index("w"))
        XCTAssertEqual(geometry.rectangle(index("g"), grownBy: 0), drawn[index("g")])
        XCTAssertEqual(geometry.rectangles, drawn)
        XCTAssertEqual(TouchGeometry(.qwerty).rectangles, drawn)
    }

    /// Words "ab" ×3, "ac" ×1, "b" ×2; codes: boundary 0, a 1, b 2, c 3.
    let tiny: [(word: String, count: Int)] = [("ab", 3), ("ac", 1), ("b", 2)]

    func testPredictorProbabilitiesAreExactCountRatiosWithBackoff() {
        let bigram = NextLetterPredictor(words: tiny, order: 2)
        XCTAssertEqual(bigram.symbols, [" ", "a", "b", "c"])
        // After a word start: a 4 times, b twice.
        XCTAssertEqual(bigram.predict(after: ""), .init(symbol: 1, probability: 4.0 / 6, contextLength: 1))
        XCTAssertEqual(bigram.predict(after: "a"), .init(symbol: 2, probability: 0.75, contextLength: 1))
        XCTAssertEqual(bigram.predict(after: "A"), .init(symbol: 2, probability: 0.75, contextLength: 1))
        XCTAssertEqual(bigram.predict(after: "ab"), .init(symbol: 0, probability: 1, contextLength: 1))
        let trigram = NextLetterPredictor(words: tiny, order: 3)
        XCTAssertEqual(trigram.predict(after: "a"), .init(symbol: 2, probability: 0.75, contextLength: 2))
        // "ba" never occurs: back off to "a".
        XCTAssertEqual(trigram.predict(after: "ba"), .init(symbol: 2, probability: 0.75, contextLength: 1))
        // Unigram: the boundary ends all 6 words among 16 symbols.
        let unigram = NextLetterPredictor(words: tiny, order: 1)
        XCTAssertEqual(unigram.predict(after: "ab"), .init(symbol: 0, probability: 6.0 / 16, contextLength: 0))
        XCTAssertEqual(trigram, NextLetterPredictor(words: tiny, order: 3))
        XCTAssertNotEqual(trigram, bigram)
        XCTAssertNotEqual(trigram, NextLetterPredictor(words: [("ab", 3), ("ac", 2), ("b", 2)], order: 3))
    }

    func testWordContextKeepsTheLastThreeLettersAndPopsToWordStartMarkers() {
        var word = WordContext()
        for code: UInt16 in [5, 6, 7, 8] { word.push(code) }
        XCTAssertEqual(word.length, 4)
        XCTAssertEqual(word.key(length: 3), NextLetterPredictor.pack([6, 7, 8] as [UInt16]))
        XCTAssertEqual(word.key(length: 1), NextLetterPredictor.pack([8] as [UInt16]))
        word.pop()
        XCTAssertEqual(word.key(length: 3), NextLetterPredictor.pack([0, 6, 7] as [UInt16]))
        word.reset()
        XCTAssertEqual(word.key(length: 2), NextLetterPredictor.pack([0, 0] as [UInt16]))
        XCTAssertEqual(word.key(length: 0), 0)
    }

    /// Keys cost 2 ms on main, predictions 5 ms on a thread of their own: every time is exact.
    func touchConfig(enabled: Bool = true) -> KeyboardConfig {
        var config = KeyboardConfig()
        config.threads.append(ExecutorConfig(name: "touch"))
        config.work[.key]!.cost = .constant(2)
        config.work[.predict] = WorkConfig(thread: "touch", priority: 1, cost: .constant(5))
        config.touch.enabled = enabled
        config.touch.predictor = NextLetterPredictor(words: tiny, order: 2)
        return config
    }

    func replay(_ config: KeyboardConfig, _ events: [TraceEvent]) throws -> ObservationBuffer {
        var source = ArrayTraceSource(events)
        var sink = ObservationBuffer()
        var simulation = KeyboardSimulation(config: config, seed: 1, replication: 0)
        _ = try simulation.run(&source, into: &sink)
        return sink
    }

    func testPredictionIsReadyOnlyIfItFinishedBeforeTheTouch() throws {
        let b = geometry.keys[index("b")].center
        let events = [
            // 0 ms: the word-start prediction (a, 2/3) is ready from the start.
            TraceEvent(time: .zero, kind: .key(text: "a", touchUp: nil, point: TouchPoint(x: 33, y: 81))),
            // Edit 0 lands at 2 ms, its prediction (b, 0.75) at 7 ms: ready exactly at the touch.
            // The point is 3 pt into n: a typo on the drawn layout, b with the 7 pt shift.
            TraceEvent(time: SimTime(milliseconds: 7), kind: .key(text: "b", touchUp: nil, point: TouchPoint(x: b.x + 19.5, y: b.y))),
            // Edit 1 lands at 9 ms, its prediction at 14 ms: 2 ms too late for this touch, which
            // is 2 pt above the space bar (on v): a typo either way.
            TraceEvent(time: SimTime(milliseconds: 12), kind: .key(text: " ", touchUp: nil, point: TouchPoint(x: 165, y: 160))),
            TraceEvent(time: SimTime(milliseconds: 30), kind: .key(text: "a", touchUp: nil, point: TouchPoint(x: 33, y: 81))),
        ]
        let sink = try replay(touchConfig(), events)
        let touches = sink.touches.sorted { $0.keyIndex < $1.keyIndex }
        XCTAssertEqual(touches.map(\.keyIndex), [0, 1, 2, 3])
        XCTAssertEqual(touches.map(\.ready), [true, true, false, true])
        XCTAssertEqual(touches.map(\.predictionDone.milliseconds), [0, 7, 14, 19])
        XCTAssertEqual(touches[2].late, .milliseconds(2))
        XCTAssertEqual(touches.map(\.plainTypo), [false, true, true, false])
        XCTAssertEqual(touches.map(\.shiftedTypo), [false, false, true, false])
        XCTAssertEqual(touches.map(\.shiftPoints), [7, 7, 0, 7])
        XCTAssertEqual(touches.map(\.predictedKey), [index("a"), index("b"), geometry.spaceIndex, index("a")])
        XCTAssertEqual(touches.map(\.probability), [4.0 / 6, 0.75, 1, 4.0 / 6])
        XCTAssertEqual(touches[1].plainKey, index("n"))
        let predictTasks = sink.tasks.filter { $0.kind == KeyboardWork.predict.code }
        XCTAssertEqual(predictTasks.map(\.finish.milliseconds), [7, 14, 19, 37])

        // Off: no predict task runs, no touch is decided, and the keys land at the same times.
        let off = try replay(touchConfig(enabled: false), events)
        XCTAssertTrue(off.touches.isEmpty)
        XCTAssertFalse(off.tasks.contains { $0.kind == KeyboardWork.predict.code })
        XCTAssertEqual(off.keys, sink.keys)
    }

    func testShiftScalesWithProbabilityUpToTheFullShiftProbability() {
        var config = TouchConfig()
        XCTAssertEqual(config.shiftPoints(probability: 0.25), 3.5)
        XCTAssertEqual(config.shiftPoints(probability: 0.5), 7)
        XCTAssertEqual(config.shiftPoints(probability: 0.9), 7)
        config.fullShiftProbability = 0
        XCTAssertEqual(config.shiftPoints(probability: 0.1), 7)
    }
}
