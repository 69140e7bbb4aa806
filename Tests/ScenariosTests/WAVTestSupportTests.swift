import Foundation
import XCTest
import Sim
@testable import Scenarios

/// Builds WAV files byte by byte, so the tests do not trust the reader to check the writer.
enum WAVBytes {
    static func le16(_ x: Int) -> [UInt8] { [UInt8(x & 0xFF), UInt8((x >> 8) & 0xFF)] }
    static func le32(_ x: Int) -> [UInt8] { (0..<4).map { UInt8((x >> (8 * $0)) & 0xFF) } }

    /// A RIFF/WAVE file with a plain fmt chunk (or an extensible one) and the given data.
    static func file(tag: Int, channels: Int, rate: Int, bits: Int, data: [UInt8], extensible: Bool = false,
                     declaredDataSize: Int? = nil, extraChunk: Bool = false) -> [UInt8] {
        let blockAlign = channels * bits / 8
        var fmt = le16(extensible ? 0xFFFE : tag) + le16(channels) + le32(rate) + le32(rate * blockAlign) + le16(blockAlign) + le16(bits)
        if extensible {
            fmt += le16(22) + le16(bits) + le32(channels == 1 ? 4 : 3)
            fmt += le16(tag) + [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
        }
        var body = Array("WAVE".utf8) + Array("fmt ".utf8) + le32(fmt.count) + fmt
        if extraChunk { body += Array("LIST".utf8) + le32(3) + [1, 2, 3, 0] }   // odd size, padded
        body += Array("data".utf8) + le32(declaredDataSize ?? data.count) + data
        return Array("RIFF".utf8) + le32(body.count) + body
    }

    static func pcm16(_ samples: [Float], rate: Int, channels: Int = 1) -> [UInt8] {
        var data: [UInt8] = []
        for s in samples { data += le16(Int(Int16(max(-32768, min(32767, (s * 32768).rounded())))) & 0xFFFF) }
        return file(tag: 1, channels: channels, rate: rate, bits: 16, data: data)
    }

    static func float32(_ samples: [Float], rate: Int, channels: Int = 1, extensible: Bool = false) -> [UInt8] {
        var data: [UInt8] = []
        for s in samples { data += le32(Int(s.bitPattern)) }
        return file(tag: 3, channels: channels, rate: rate, bits: 32, data: data, extensible: extensible)
    }

    /// Silence with faint noise, then "speech" (a vowel-like mix of tones under a syllable
    /// envelope, with noise), then silence: the speech starts exactly at `leadMs`.
    static func clip(rate: Int, leadMs: Double, speechMs: Double, tailMs: Double, seed: UInt64 = 1) -> [Float] {
        var state = seed
        func noise() -> Float {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Float(Int64(bitPattern: state >> 11) % 2001 - 1000) / 1000
        }
        let lead = Int(Double(rate) * leadMs / 1000), speech = Int(Double(rate) * speechMs / 1000)
        let tail = Int(Double(rate) * tailMs / 1000)
        var out: [Float] = []
        for _ in 0..<lead { out.append(0.0003 * noise()) }          // about −75 dBFS room noise
        for i in 0..<speech {
            let t = Double(i) / Double(rate)
            let syllable = Float(0.55 + 0.45 * sin(2 * .pi * 4 * t))   // 4 syllables a second, never silent
            let voice = Float(sin(2 * .pi * 140 * t) + 0.5 * sin(2 * .pi * 700 * t) + 0.25 * sin(2 * .pi * 1900 * t))
            out.append(0.25 * syllable * voice + 0.02 * noise())
        }
        for _ in 0..<tail { out.append(0.0003 * noise()) }
        return out
    }

    static func temporaryDirectory() throws -> String {
        let dir = NSTemporaryDirectory() + "keysim-wav-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
}
