import Sim

/// A decoded WAV file: its format and its samples mixed down to one channel.
public struct WAVAudio: Sendable, Equatable {
    /// How the samples were stored.
    public enum Encoding: Sendable, Equatable {
        /// Signed integer PCM (unsigned for 8 bits) of the given width.
        case pcm(bits: Int)
        /// IEEE floating point of the given width (32 or 64).
        case float(bits: Int)
    }

    /// Frames per second.
    public var sampleRate: Int
    /// Channels in the file (the samples are their mean).
    public var channels: Int
    /// The stored encoding.
    public var encoding: Encoding
    /// One value per frame, the mean of the channels, full scale ±1.
    public var samples: [Float]

    /// Creates audio from decoded samples.
    public init(sampleRate: Int, channels: Int = 1, encoding: Encoding, samples: [Float]) {
        precondition(sampleRate > 0 && channels > 0, "audio needs a sample rate and a channel")
        self.sampleRate = sampleRate
        self.channels = channels
        self.encoding = encoding
        self.samples = samples
    }

    /// The length of the audio.
    public var duration: SimDuration { time(ofFrame: samples.count) }

    /// The time of the start of frame `frame`, rounded to the nanosecond.
    public func time(ofFrame frame: Int) -> SimDuration {
        SimDuration(nanoseconds: Int64((Double(frame) * 1e9 / Double(sampleRate)).rounded()))
    }
}
