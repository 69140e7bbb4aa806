import XCTest
import Sim
@testable import Scenarios

/// Pins the human typist's traces, event for event and time for time, so that work on the
/// speed of its synthesis can prove it changed no draw: every bundled preset, a profile with
/// a rhythm and hesitations, and profiles that slip, pick suggestions, hide the keyboard and
/// switch between Latin and Cyrillic letters often, each over several seeds, typing text with
/// capitals, digits, punctuation, emoji, long-press letters, accented letters, combining marks
/// and dictations. Every event's trace line is folded into one digest per profile.
final class HumanTypistPinningTests: XCTestCase {
    /// 64-bit FNV-1a over the trace lines, each ended by a newline.
    private static func digest(_ events: [TraceEvent], into value: inout UInt64) {
        let encoder = TraceLineEncoder()
        for event in events {
            for byte in encoder.encode(event).utf8 + [0x0a] {
                value ^= UInt64(byte)
                value = value &* 0x0000_0100_0000_01b3
            }
        }
    }

    /// Bilingual chat: Latin and Cyrillic words, switches inside lines and words, capitals,
    /// digits, punctuation, emoji (one with a skin tone, one ZWJ sequence), ё and ъ (long
    /// presses), é and a combining accent, and words long enough to pick from the bar.
    static let bilingual = """
        Привет! Are you coming tonight? Встречаемся в 19:30 у метро.
        OK, I'll bring the салат and dessert 🍰 if you prefer... Ещё вопрос: объявление видел?
        Sure — see you at eight; café nearby, naïve plan 👍🏽 or 👩‍👩‍👧?
        ПОНЯЛ, будем вдвоём (или втроём). Thanks!!! 42 minutes, x2 faster-than-before
        Schöne Grüße, Mañana ça va? ok
        """

    /// The script: the bilingual text with two dictations between its parts.
    static var script: SynthScript {
        let lines = bilingual.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return SynthScript(segments: [
            .typed(lines[0] + "\n" + lines[1] + " "),
            .dictation(audio: "clips/hello.wav", transcript: "see you soon", lengthNanos: 1_250_000_000),
            .typed("\n" + lines[2] + "\n"),
            .dictation(audio: "clips/ru.wav", transcript: "до встречи", lengthNanos: 900_000_000),
            .typed(" " + lines[3] + "\n" + lines[4]),
        ])
    }

    /// A typist who does everything often: slips of every fate, suggestions, hidden keyboards.
    static var busy: TypistProfile {
        var profile = TypistProfile.chat
        profile.name = "busy"
        profile.errors = .init(slipRate: 0.25, noticedInWordShare: 0.35, noticedAfterWordShare: 0.4, cursorFixShare: 0.5)
        profile.suggestions = .init(pickRate: 0.4, minimumLength: 4)
        profile.messages.hideProbability = 0.6
        for context in TypistProfile.Context.allCases { profile[context].pauseProbability += 0.02 }
        return profile
    }

    /// The profiles pinned, by name.
    static var profiles: [(String, TypistProfile)] {
        var russian = busy
        russian.language = "ru-RU"
        var ukrainian = TypistRhythmTests.rhythmic
        ukrainian.language = "UK"
        ukrainian.errors = busy.errors
        ukrainian.suggestions = busy.suggestions
        var rhythmOnly = TypistProfile.email
        rhythmOnly.rhythm = TypistRhythm(serialCorrelation: -0.3)
        var oneField = busy
        oneField.messages.perLine = false
        return TypistProfile.presetNames.map { ($0, TypistProfile.preset(named: $0)!) } + [
            ("rhythmic", TypistRhythmTests.rhythmic), ("busy", busy), ("russian", russian),
            ("ukrainian-rhythmic", ukrainian), ("email-serial", rhythmOnly), ("busy-one-field", oneField),
        ]
    }

    /// The digests recorded from the typist before its synthesis was made fast.
    static let expected: [String: UInt64] = [
        "chat": 0x754b_6c00_901d_2bcb,
        "email": 0x79ba_015e_b948_5861,
        "copying": 0xbe36_49aa_fc50_3fa0,
        "rhythmic": 0xe02c_f920_b69c_c802,
        "busy": 0xa99f_2cb8_1d53_6abc,
        "russian": 0xbe60_c967_18d4_fbc0,
        "ukrainian-rhythmic": 0xc69c_d072_65b9_1a5f,
        "email-serial": 0xbef1_868f_80f3_d466,
        "busy-one-field": 0xcdde_a56a_dcf5_ba8b,
    ]

    func testTracesAreThoseRecordedForEveryProfileScriptAndSeed() {
        let english = SynthScript(segments: [.typed(HumanTypistTests.messagesText)])
        var recorded: [String] = []
        var kinds: [String: Int] = [:]
        for (name, profile) in Self.profiles {
            var value: UInt64 = 0xcbf2_9ce4_8422_2325
            let typist = HumanTypist(profile: profile)
            for seed: UInt64 in [0, 1, 7, 27, 1_000_003] {
                let events = typist.synthesize(Self.script, seed: seed)
                Self.digest(events, into: &value)
                for event in events { kinds[Self.kindName(event.kind), default: 0] += 1 }
            }
            for seed: UInt64 in [3, 11] {
                Self.digest(typist.synthesize(english, seed: seed), into: &value)
            }
            recorded.append("\"\(name)\": 0x\(String(value, radix: 16)),")
            XCTAssertEqual(value, Self.expected[name], "profile \(name): its traces moved")
        }
        // The pin covers every kind of edit the typist makes.
        for kind in ["key", "backspace", "cursor", "suggestion", "language", "dictation", "hidden", "cleared"] {
            XCTAssertGreaterThan(kinds[kind, default: 0], 3, "the pinned traces have too few \(kind) events: \(kinds)")
        }
        if Self.expected.count != recorded.count { print(recorded.joined(separator: "\n")) }
    }

    /// The kind of an event, a cleared field told apart.
    private static func kindName(_ kind: TraceEvent.Kind) -> String {
        switch kind {
        case .key: "key"
        case .backspace: "backspace"
        case .cursorMove: "cursor"
        case .suggestionPicked: "suggestion"
        case .languageSwitch: "language"
        case .dictationStart: "dictation"
        case .keyboardHidden: "hidden"
        case .field(let field): field.change == .cleared ? "cleared" : "field"
        default: "other"
        }
    }
}
