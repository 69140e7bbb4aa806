/// The format of a WAV file (RIFF/WAVE, PCM), as dictation traces reference them: enough to
/// check that a clip is usable and to know how long it lasts.
///
/// Only uncompressed PCM is accepted (format tag 1, or WAVE_FORMAT_EXTENSIBLE with the PCM
/// sub-format), 8 to 32 bits per sample, 1 to 8 channels.
public struct WAVFile: Sendable, Equatable {
    /// The largest WAV file read, 256 MiB: hours of 16 kHz speech, far beyond a dictation.
    public static let byteCountMax = 256 << 20

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

    /// Reads and checks the WAV file at `path`.
    /// - Throws: `InputError` `.noSuchFile`, `.unreadable`, or `.invalidContent` with what is
    ///   wrong ("not a WAV file (no RIFF/WAVE header)", "truncated data chunk", …).
    public static func read(path: String) throws(InputError) -> WAVFile {
        let bytes = try WholeFile.bytes(of: try FileByteSource(path: path), path: path, bytesMax: byteCountMax,
                                        tooLarge: "WAV file is larger than \(byteCountMax >> 20) MiB")
        do {
            return try parse(bytes)
        } catch {
            throw InputError(.invalidContent, file: path, message: error.message)
        }
    }

    /// What is wrong with a WAV file's bytes.
    public struct FormatError: Error, Equatable, Sendable {
        /// A sentence fragment.
        public var message: String
    }

    /// Parses the bytes of a whole WAV file.
    public static func parse(_ bytes: [UInt8]) throws(FormatError) -> WAVFile {
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        func tag(_ at: Int) -> String { String(decoding: bytes[at..<(at + 4)], as: UTF8.self) }
        guard bytes.count >= 12, tag(0) == "RIFF", tag(8) == "WAVE" else {
            throw FormatError(message: "not a WAV file (no RIFF/WAVE header)")
        }
        var format: (channels: Int, rate: Int, bits: Int, blockAlign: Int)?
        var offset = 12
        while offset + 8 <= bytes.count {
            let id = tag(offset)
            let size = u32(offset + 4)
            let body = offset + 8
            if id == "fmt " {
                guard size >= 16, body + 16 <= bytes.count else { throw FormatError(message: "truncated fmt chunk") }
                var formatTag = u16(body)
                if formatTag == 0xFFFE && size >= 40 && body + 26 <= bytes.count {
                    formatTag = u16(body + 24) // the sub-format GUID starts with the format tag
                }
                guard formatTag == 1 else {
                    throw FormatError(message: "WAV format tag \(formatTag) is not PCM (only uncompressed PCM is read)")
                }
                let channels = u16(body + 2), rate = u32(body + 4), blockAlign = u16(body + 12), bits = u16(body + 14)
                guard (1...8).contains(channels) else { throw FormatError(message: "WAV file has \(channels) channels (1 to 8 are read)") }
                guard (1...768_000).contains(rate) else { throw FormatError(message: "WAV sample rate \(rate) Hz is out of range") }
                guard [8, 16, 24, 32].contains(bits), blockAlign == channels * bits / 8 else {
                    throw FormatError(message: "WAV sample format of \(bits) bits in blocks of \(blockAlign) bytes is not supported")
                }
                format = (channels, rate, bits, blockAlign)
            } else if id == "data" {
                guard let format else { throw FormatError(message: "WAV data chunk before the fmt chunk") }
                guard body + size <= bytes.count else {
                    throw FormatError(message: "truncated WAV data chunk (\(bytes.count - body) of \(size) bytes)")
                }
                return WAVFile(sampleRate: format.rate, channelCount: format.channels,
                               bitsPerSample: format.bits, frameCount: size / format.blockAlign)
            }
            // Chunks are padded to an even size.
            offset = body + size + (size & 1)
        }
        throw FormatError(message: format == nil ? "WAV file has no fmt chunk" : "WAV file has no data chunk")
    }
}
