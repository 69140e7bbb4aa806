import Sim

/// Reads RIFF/WAVE files: integer PCM of 8, 16, 24 or 32 bits and IEEE float of 32 or 64
/// bits, any number of channels (mixed down), `WAVE_FORMAT_EXTENSIBLE` with either subformat.
/// Anything else — compressed encodings, a sample rate of zero, a file that ends inside its
/// data — is an `InputError` naming the file.
public enum WAVReader {
    /// The largest file read (256 MiB: over 2 hours of 16-bit 16 kHz mono); a limit keeps a
    /// wrong path from filling the memory.
    public static let fileBytesMax = 256 << 20

    /// Reads and decodes the file at `path`.
    public static func read(path: String) throws(InputError) -> WAVAudio {
        try decode(FileByteSource.readAll(path: path, bytesMax: Int64(fileBytesMax)), file: path)
    }

    /// Decodes the bytes of a WAV file; `file` names it in errors.
    public static func decode(_ bytes: [UInt8], file: String) throws(InputError) -> WAVAudio {
        func fail(_ kind: InputError.Kind, _ message: String) -> InputError { InputError(kind, file: file, message: message) }
        if !bytes.isEmpty, !bytes.starts(with: Array("RIFF".utf8).prefix(bytes.count)) {
            throw fail(.invalidContent, "not a WAV file (no RIFF/WAVE header)")
        }
        guard bytes.count >= 12 else {
            throw fail(bytes.isEmpty ? .invalidContent : .truncated,
                       bytes.isEmpty ? "empty file, not a WAV file" : "truncated WAV: \(bytes.count) bytes, shorter than a RIFF header")
        }
        guard tag(bytes, 0) == "RIFF", tag(bytes, 8) == "WAVE" else { throw fail(.invalidContent, "not a WAV file (no RIFF/WAVE header)") }
        var format: (tag: Int, channels: Int, rate: Int, bits: Int)?
        var offset = 12
        while offset + 8 <= bytes.count {
            let id = tag(bytes, offset)
            var size = Int(u32(bytes, offset + 4))
            let body = offset + 8
            if id == "data" {
                guard let format else { throw fail(.invalidContent, "the data chunk comes before the fmt chunk") }
                // Streaming writers leave 0xFFFFFFFF for "until the end of the file".
                if size == 0xFFFF_FFFF { size = bytes.count - body }
                guard body + size <= bytes.count else {
                    throw fail(.truncated, "truncated WAV: the data chunk declares \(size) bytes but \(bytes.count - body) follow")
                }
                return try samples(bytes[body..<(body + size)], format: format, file: file)
            }
            if id == "fmt " {
                guard size >= 16, body + size <= bytes.count else { throw fail(.truncated, "truncated WAV: the fmt chunk is incomplete") }
                var formatTag = Int(u16(bytes, body))
                if formatTag == 0xFFFE {   // WAVE_FORMAT_EXTENSIBLE: the subformat GUID starts with the tag
                    guard size >= 40 else { throw fail(.invalidContent, "WAVE_FORMAT_EXTENSIBLE fmt chunk shorter than 40 bytes") }
                    formatTag = Int(u16(bytes, body + 24))
                }
                format = (formatTag, Int(u16(bytes, body + 2)), Int(u32(bytes, body + 4)), Int(u16(bytes, body + 14)))
                try check(format!, file: file)
            }
            offset = body + size + (size & 1)   // chunks are padded to an even size
        }
        throw fail(.truncated, format == nil ? "truncated WAV: no fmt chunk" : "truncated WAV: no data chunk")
    }

    private static func check(_ format: (tag: Int, channels: Int, rate: Int, bits: Int), file: String) throws(InputError) {
        func fail(_ message: String) -> InputError { InputError(.invalidContent, file: file, message: message) }
        switch (format.tag, format.bits) {
        case (1, 8), (1, 16), (1, 24), (1, 32), (3, 32), (3, 64): break
        case (1, _), (3, _):
            throw fail("unsupported WAV sample size: \(format.bits)-bit \(format.tag == 1 ? "PCM" : "float")")
        default:
            throw fail("unsupported WAV encoding: format tag \(hex(format.tag)) (\(name(ofTag: format.tag))); keysim reads PCM (1) and IEEE float (3)")
        }
        guard format.channels > 0 else { throw fail("WAV file with 0 channels") }
        guard format.rate > 0 else { throw fail("WAV sample rate is 0") }
    }

    private static func samples(_ data: ArraySlice<UInt8>, format: (tag: Int, channels: Int, rate: Int, bits: Int),
                                file: String) throws(InputError) -> WAVAudio {
        let width = format.bits / 8, frameBytes = width * format.channels
        guard data.count % frameBytes == 0 else {
            throw InputError(.truncated, file: file,
                             message: "truncated WAV: the data chunk (\(data.count) bytes) ends inside a \(frameBytes)-byte frame")
        }
        let frames = data.count / frameBytes
        var out = [Float](repeating: 0, count: frames)
        let scale = 1 / Float(format.channels)
        data.withUnsafeBytes { raw in
            var at = 0
            for frame in 0..<frames {
                var sum: Float = 0
                for _ in 0..<format.channels {
                    sum += sample(raw, at, tag: format.tag, width: width)
                    at += width
                }
                out[frame] = sum * scale
            }
        }
        let encoding: WAVAudio.Encoding = format.tag == 1 ? .pcm(bits: format.bits) : .float(bits: format.bits)
        return WAVAudio(sampleRate: format.rate, channels: format.channels, encoding: encoding, samples: out)
    }

    @inline(__always)
    private static func sample(_ raw: UnsafeRawBufferPointer, _ at: Int, tag: Int, width: Int) -> Float {
        if tag == 3 {
            if width == 4 { return Float(bitPattern: raw.loadUnaligned(fromByteOffset: at, as: UInt32.self).littleEndian) }
            return Float(Double(bitPattern: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self).littleEndian))
        }
        switch width {
        case 1: return (Float(raw[at]) - 128) / 128
        case 2: return Float(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: Int16.self))) / 32768
        case 3:
            let value = Int32(raw[at]) << 8 | Int32(raw[at + 1]) << 16 | Int32(raw[at + 2]) << 24
            return Float(value >> 8) / 8_388_608
        default: return Float(Int32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: Int32.self))) / 2_147_483_648
        }
    }

    private static func tag(_ bytes: [UInt8], _ at: Int) -> String {
        String(decoding: bytes[at..<(at + 4)], as: UTF8.self)
    }
    private static func u16(_ bytes: [UInt8], _ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
    private static func u32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }
    private static func hex(_ tag: Int) -> String {
        let digits = String(tag, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
    private static func name(ofTag tag: Int) -> String {
        switch tag {
        case 2: "Microsoft ADPCM"
        case 6: "A-law"
        case 7: "µ-law"
        case 0x11: "IMA ADPCM"
        case 0x55: "MPEG Layer 3"
        default: "not PCM or float"
        }
    }
}
