import Foundation
import Sim

/// A copy-typing "recording" in the 136M Keystrokes format (one participant's keystroke
/// table), made by a generative model of its own, unlike keysim's typist, so that fitting
/// keysim's typist to it tests the fit rather than the model against itself:
///
/// - every interval is a base of `baseMs` times a factor for what it types (a word start
///   1.35, after a mark 1.2, a capital 1.3 for the shift), times the letter pair's own
///   factor within a word — a fixed effect per pair drawn once from its letters' hash
///   (log-normal, σ `digraphSpread`) times the pair's kind on a desktop keyboard (the same key
///   0.75, the same finger 1.35, the same hand 1.08, alternating hands 0.88, by the generator's
///   own finger table) — plus `secondLetterExtraMs` before a word's second letter, and ×0.85
///   before the space that ends a word;
/// - times exp(e), with e an AR(1) chain over every interval (coefficient `serialCorrelation`,
///   stationary σ `residualSigma`, Gaussian innovations);
/// - plus, with probability `hesitationShare`, a gamma hesitation (shape 2, mean
///   `hesitationMeanMs`) added on top, and at word starts, with probability
///   `pauseShare`, a pause of 1.2–4 s;
/// - a letter slips with `slipRate` to the next key in its row, noticed after one interval
///   (×1.8), backspaced and retyped (×1.1).
///
/// Times are whole epoch milliseconds, keys held 60–120 ms, sections 4–8 s apart.
struct CopyTypingRecording {
    var baseMs = 165.0
    var digraphSpread = 0.3
    var secondLetterExtraMs = 30.0
    var serialCorrelation = 0.4
    var residualSigma = 0.28
    var hesitationShare = 0.05
    var hesitationMeanMs = 440.0
    var pauseShare = 0.015
    var slipRate = 0.01
    /// The share of keys pressed in the same millisecond as the one before (rollover with a
    /// coarse clock).
    var sameMillisecondShare = 0.0

    /// The sentences of `traces/text/english-messages.txt`.
    static func sentences(root: URL) -> [String] {
        let text = try! String(contentsOf: root.appendingPathComponent("traces/text/english-messages.txt"), encoding: .utf8)
        var sentences: [String] = []
        var current = ""
        for c in text {
            if c == "\n" { continue }
            if current.isEmpty && c == " " { continue }
            current.append(c)
            if ".!?".contains(c) {
                sentences.append(current)
                current = ""
            }
        }
        return sentences
    }

    /// The keystroke table of `sentences` typed by participant `participant`, seeded by `seed`.
    func table(_ sentences: [String], seed: UInt64, participant: Int = 7) -> String {
        var random = RandomStream(seed: seed, replication: 0, name: "test.copy-typing")
        var rows = [Aalto136MFormat.header]
        var time: Int64 = 1_500_000_000_000
        var keystroke = 1
        var latent = normal(&random) * residualSigma
        for (index, sentence) in sentences.enumerated() {
            let section = 40_000 + index
            var previous: Character?
            var wordLength = 0
            func press(_ letter: String, after intervalMs: Double?) {
                if let intervalMs { time += Int64(intervalMs.rounded()) }
                let release = time + 60 + Int64(random.nextInt(below: 61))
                rows.append("\(participant)\t\(section)\t\(sentence)\t\(sentence)\t\(keystroke)\t\(time)\t\(release)\t\(letter)\t0")
                keystroke += 1
            }
            for c in sentence {
                var interval: Double?
                if let last = previous {
                    latent = serialCorrelation * latent
                        + (1 - serialCorrelation * serialCorrelation).squareRoot() * residualSigma * normal(&random)
                    var ms = baseMs * factor(last, c, wordLength: wordLength) * exp(latent)
                    if (last.isLetter || last.isNumber) && (c.isLetter || c.isNumber) && wordLength == 1 { ms += secondLetterExtraMs }
                    if random.nextDouble() < hesitationShare {
                        ms += hesitationMeanMs / 2 * (-log(random.nextOpenUnit()) - log(random.nextOpenUnit()))
                    }
                    if last == " " && random.nextDouble() < pauseShare { ms += 1200 + 2800 * random.nextDouble() }
                    interval = sameMillisecondShare > 0 && random.nextDouble() < sameMillisecondShare ? 0 : ms
                }
                if c.isLetter, wordLength > 0, random.nextDouble() < slipRate, let wrong = Self.neighbour(of: c) {
                    press(String(wrong), after: interval)
                    press("BKSP", after: baseMs * 1.8 * exp(latent))
                    press(String(c), after: baseMs * 1.1 * exp(latent))
                } else {
                    press(c == " " ? "SPACE" : String(c), after: interval ?? 1)
                }
                wordLength = c.isLetter || c.isNumber ? wordLength + 1 : 0
                previous = c
            }
            time += 4000 + Int64(random.nextInt(below: 4001))
        }
        return rows.joined(separator: "\n") + "\n"
    }

    /// The factor of the interval before `c` after `last`.
    private func factor(_ last: Character, _ c: Character, wordLength: Int) -> Double {
        var factor = 1.0
        if last == " " {
            factor = 1.35
        } else if !(last.isLetter || last.isNumber) {
            factor = 1.2
        } else if c.isLetter && last.isLetter {
            factor = Self.kindFactor(last, c) * exp(digraphSpread * Self.pairNormal(last, c))
        } else if !(c.isLetter || c.isNumber) {
            factor = 0.85
        }
        if c.isUppercase { factor *= 1.3 }
        return factor
    }

    /// The generator's desktop finger table: each string is one finger's keys, left little
    /// finger to right little finger.
    private static let fingers = ["qaz", "wsx", "edc", "rfvtgb", "yhnujm", "ik", "ol", "p"]

    private static func kindFactor(_ a: Character, _ b: Character) -> Double {
        let x = Character(a.lowercased()), y = Character(b.lowercased())
        guard let fx = fingers.firstIndex(where: { $0.contains(x) }), let fy = fingers.firstIndex(where: { $0.contains(y) }) else { return 1 }
        if x == y { return 0.75 }
        if fx == fy { return 1.35 }
        return (fx < 4) == (fy < 4) ? 1.08 : 0.88
    }

    /// A fixed standard normal for the pair, from a hash of its letters.
    private static func pairNormal(_ a: Character, _ b: Character) -> Double {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for scalar in (String(a) + String(b)).lowercased().unicodeScalars {
            hash = (hash ^ UInt64(scalar.value)) &* 0x100_0000_01b3
        }
        var mixer = SplitMix(seed: hash)
        let u1 = (Double(mixer.next() >> 11) + 0.5) / 9_007_199_254_740_992
        let u2 = Double(mixer.next() >> 11) / 9_007_199_254_740_992
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    private static func neighbour(of c: Character) -> Character? {
        for row in ["qwertyuiop", "asdfghjkl", "zxcvbnm"] {
            let letters = Array(row)
            if let index = letters.firstIndex(of: Character(c.lowercased())) {
                return letters[index + 1 < letters.count ? index + 1 : index - 1]
            }
        }
        return nil
    }

    private func normal(_ random: inout RandomStream) -> Double {
        (-2 * log(random.nextOpenUnit())).squareRoot() * cos(2 * Double.pi * random.nextDouble())
    }
}

/// The 136M Keystrokes file format's header row.
enum Aalto136MFormat {
    static let header = "PARTICIPANT_ID\tTEST_SECTION_ID\tSENTENCE\tUSER_INPUT\tKEYSTROKE_ID\tPRESS_TIME\tRELEASE_TIME\tLETTER\tKEYCODE"
}
