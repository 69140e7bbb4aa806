/// The format of a WAV file, as dictation traces reference them: enough to check that a
/// clip is usable and to know how long it lasts. Read by `WAVReader`, so it accepts exactly
/// what a run accepts (integer PCM of 8 to 32 bits, IEEE float of 32 or 64, any channels).
public struct WAVFile: Sendable, Equatable {
    /// The largest WAV file read, 256 MiB: hours of 16 kHz speech, far beyond a dictation.
    public static let byteCountMax = WAVReader.fileBytesMax

    /// Samples per second.
    public var sampleRate: Int
    /// Interleaved channels.
    public var channelCount: Int
    /// Bits per sample.
    public var bitsPerSample: Int
    /// Sample frames (one sample per channel each) in the data chunk.
    public var frameCount: Int

    /// Creates a description.
    public init(sampleRate: Int, channelCount: Int, bitsPerSample: Int, frameCount: Int) {
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.bitsPerSample = bitsPerSample
        self.frameCount = frameCount
    }

    /// How long the clip plays, in nanoseconds (rounded down).
    public var durationNanos: Int64 {
        Int64(frameCount) * 1_000_000_000 / Int64(sampleRate)
    }

    /// Reads and checks the WAV file at `path` with `WAVReader`, the one WAV parser that
    /// `trace validate` and `run` share: a file one accepts, the other accepts too.
    /// - Throws: `InputError` `.noSuchFile`, `.unreadable`, `.truncated` or `.invalidContent`
    ///   with what is wrong ("not a WAV file (no RIFF/WAVE header)", "truncated WAV: …", …).
    public static func read(path: String) throws(InputError) -> WAVFile {
        let audio = try WAVReader.read(path: path)
        let bits: Int
        switch audio.encoding {
        case .pcm(let width), .float(let width): bits = width
        }
        return WAVFile(sampleRate: audio.sampleRate, channelCount: audio.channels, bitsPerSample: bits, frameCount: audio.samples.count)
    }
}
