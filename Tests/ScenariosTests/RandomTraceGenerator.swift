import Sim
@testable import Scenarios

/// Random but valid trace events from a seed: times never go backwards, texts mix the
/// Unicode that breaks naive code.
struct RandomTraceGenerator {
    private var random: SplitMix64
    private var now: Int64 = 0

    private static let pieces = [
        "a", "Z", " ", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1F}", "\u{7F}", "é", "e\u{301}", "ß",
        "привет", "Ё", "👍🏽", "👩‍👩‍👧", "🇺🇦", "日本", "\u{2028}", "\u{FFFD}", "\u{10FFFF}", ".com", "{}", "[1,2]",
    ]
    private static let languages = ["en", "ru", "de", "pt-BR", "zh-Hans-CN", "sr-Latn", "de-CH-1996"]

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    private mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    private mutating func chance() -> Bool { Bool.random(using: &random) }

    private mutating func text(nonEmpty: Bool = true) -> String {
        let count = int(nonEmpty ? 1...6 : 0...6)
        return (0..<count).map { _ in Self.pieces.randomElement(using: &random)! }.joined()
    }

    private mutating func duration() -> Int64 {
        switch int(0...3) {
        case 0: Int64(int(0...1_000))                        // sub-microsecond detail
        case 1: Int64(int(0...500)) * 1_000_000              // whole milliseconds
        case 2: Int64(int(0...2_000_000_000))                // anything up to 2 s
        default: Int64.random(in: 0...SimDuration.maxNanoseconds, using: &random) / 4_096
        }
    }

    private mutating func coordinate() -> Double {
        switch int(0...2) {
        case 0: return Double(int(0...4_000)) / 8                     // typical points
        case 1: return Double.random(in: -1e6...1e6, using: &random)
        default:
            while true {                                             // any finite double
                let value = Double(bitPattern: random.next())
                if value.isFinite { return value }
            }
        }
    }

    private mutating func touch() -> (SimTime?, TouchPoint?) {
        let up = chance() ? SimTime(nanoseconds: now + duration()) : nil
        let point = chance() ? TouchPoint(x: coordinate(), y: coordinate()) : nil
        return (up, point)
    }

    mutating func header() -> TraceHeader {
        TraceHeader(name: chance() ? text(nonEmpty: false) : nil,
                    language: Self.languages.randomElement(using: &random)!,
                    intendedText: chance() ? text(nonEmpty: false) : nil,
                    source: chance() ? text() : nil)
    }

    mutating func event() -> TraceEvent {
        if int(0...3) == 0 { now = min(SimDuration.maxNanoseconds / 2, now + duration()) }
        let kind: TraceEvent.Kind
        switch int(0...12) {
        case 0: let (up, point) = touch(); kind = .key(text: text(), touchUp: up, point: point)
        case 1: let (up, point) = touch(); kind = .backspace(touchUp: up, point: point)
        case 2: kind = .suggestionPicked(text: text())
        case 3: kind = .cursorMove(offset: int(-Int(Int32.max)...Int(Int32.max)) >> int(0...31))
        case 4: kind = .paste(text: text())
        case 5: kind = .keyboardShown
        case 6: kind = .keyboardHidden
        case 7: kind = .languageSwitch(language: Self.languages.randomElement(using: &random)!)
        case 8: kind = .network(NetworkCondition.allCases.randomElement(using: &random)!)
        case 9:
            let transcript = chance() ? text(nonEmpty: false) : nil
            kind = .dictationStart(audio: chance()
                ? .wavFile(path: "clips/" + text(), transcript: transcript)
                : .inline(onset: SimDuration(nanoseconds: duration()), length: SimDuration(nanoseconds: duration()),
                          transcript: transcript))
        case 10: kind = .dictationStop
        case 11: kind = .chipAccepted(wordIndex: chance() ? int(0...Int(Int32.max)) >> int(0...31) : nil)
        default:
            kind = .field(FieldChange(FieldChange.Change.allCases.randomElement(using: &random)!,
                                      text: chance() ? text() : "", intendedText: chance() ? text(nonEmpty: false) : nil))
        }
        return TraceEvent(time: SimTime(nanoseconds: now), kind: kind)
    }
}
