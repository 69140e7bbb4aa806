import Foundation
import Sim

/// Finds where speech starts and ends in a clip by its energy.
///
/// The clip is cut into frames of `frameMs`; a frame is *loud* when its RMS level, in dB
/// relative to full scale, is at least the threshold: `floorDBFS`, or `peakRelativeDB` below
/// the loudest frame when that is higher (so a quiet recording still finds its speech, and
/// a loud one ignores its room noise); the loudest frame is the loudest level held for
/// `minSpeechMs`, so that a click does not count. Speech starts at the first run of at least
/// `minSpeechMs` of loud frames and ends at the end of the last such run; shorter bursts
/// (clicks, the tap of the button) are ignored. Onset and end are thus exact to one frame
/// (10 ms by default). A clip without such a run has no speech.
public struct SpeechDetector: Sendable, Equatable {
    /// The frame length, in milliseconds.
    public var frameMs: Double = 10
    /// The absolute threshold, in dBFS.
    public var floorDBFS: Double = -60
    /// How far below the loudest frame the threshold may go, in dB.
    public var peakRelativeDB: Double = 35
    /// The shortest run of loud frames that counts as speech, in milliseconds.
    public var minSpeechMs: Double = 30

    /// The default detector.
    public init() {}

    /// Speech found in the clip: its onset from the start of the clip and its length.
    public func detect(_ audio: WAVAudio) -> (onset: SimDuration, length: SimDuration)? {
        let frameLength = max(1, Int((Double(audio.sampleRate) * frameMs / 1000).rounded()))
        let frameCount = (audio.samples.count + frameLength - 1) / frameLength
        guard frameCount > 0 else { return nil }
        // Mean squares, compared in the power domain: dB = 10·log10(mean square).
        var levels = [Double](repeating: 0, count: frameCount)
        for frame in 0..<frameCount {
            let range = (frame * frameLength)..<min(audio.samples.count, (frame + 1) * frameLength)
            var energy = 0.0
            for i in range { energy += Double(audio.samples[i]) * Double(audio.samples[i]) }
            levels[frame] = energy / Double(range.count)
        }
        // The peak is the loudest level held for `minSpeechMs`, so a click cannot raise the
        // threshold above the speech.
        let runMin = max(1, Int((minSpeechMs / frameMs).rounded(.up)))
        var peak = 0.0
        for start in 0...max(0, frameCount - runMin) {
            peak = max(peak, levels[start..<min(frameCount, start + runMin)].min()!)
        }
        guard peak > 0 else { return nil }
        let threshold = max(pow(10, floorDBFS / 10), peak * pow(10, -peakRelativeDB / 10))
        var first: Int?, last: Int?
        var runStart: Int?
        for frame in 0...frameCount {
            let loud = frame < frameCount && levels[frame] >= threshold
            if loud, runStart == nil { runStart = frame }
            if !loud, let start = runStart {
                if frame - start >= runMin {
                    if first == nil { first = start }
                    last = frame
                }
                runStart = nil
            }
        }
        guard let first, let last else { return nil }
        let onset = audio.time(ofFrame: first * frameLength)
        let end = audio.time(ofFrame: min(audio.samples.count, last * frameLength))
        return (onset, end - onset)
    }
}
