import Foundation
import Sim

// `make bench`: one line per benchmark, `bench <name> <value> <unit>`. Each figure is the
// median of several repetitions in this one process, so a noisy neighbour moves it less.

/// Seconds of wall time `body` takes.
func seconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// Benchmarks named on the command line, or all of them.
let selected = Set(CommandLine.arguments.dropFirst())

/// Runs a benchmark unless others were selected, and prints its line.
func report(_ name: String, _ value: @autoclosure () -> Double, _ unit: String) {
    guard selected.isEmpty || selected.contains(name) else { return }
    print("bench \(name) \(Int(value().rounded())) \(unit)")
}

/// The hold model: 1,000 pending timers; pop the earliest, schedule a new one at a random
/// later time. Measures the event queue and the engine clock together.
func engineEventsPerSecond() -> Double {
    let pending = 1_000
    let events = 10_000_000
    var rates: [Double] = []
    for repetition in 0..<5 {
        var engine = Engine<Int>()
        var rng = RandomStream(seed: 1, replication: repetition, name: "bench.engine")
        for i in 0..<pending { engine.schedule(i, at: SimTime(nanoseconds: Int64(rng.nextUInt64() % 1_000_000))) }
        var checksum = 0
        let elapsed = seconds {
            for _ in 0..<events {
                let event = engine.next()!
                checksum &+= event
                engine.schedule(event, after: SimDuration(nanoseconds: Int64(rng.nextUInt64() % 1_000_000) + 1))
            }
        }
        precondition(checksum != 0 && engine.pendingCount == pending)
        rates.append(Double(events) / elapsed)
    }
    return median(rates)
}


/// The full keyboard model (threads, suggestions, checker, debounce, network, cloud,
/// underlines) with every observation recorded, replaying a synthetic typist: keys/s.
func keyboardKeysPerSecond() -> Double {
    let words = ["the", "quick", "brown", "fox", "jumps", "over", "a", "lazy", "dog", "and", "runs", "away"]
    var events: [TraceEvent] = []
    var intended: [String] = []
    var t = 0.0
    var rng = RandomStream(seed: 5, replication: 0, name: "bench.typist")
    while events.count < 200_000 {
        let word = words[rng.nextInt(below: words.count)]
        intended.append(word)
        // One word in twenty carries an uncorrected typo, so the checkers have work.
        let typed = rng.nextInt(below: 20) == 0 ? String(word.reversed()) : word
        for character in typed + (rng.nextInt(below: 10) == 0 ? ". " : " ") {
            t += 80 + 200 * rng.nextDouble()
            events.append(TraceEvent(time: SimTime(milliseconds: t), kind: .key(text: String(character), touchUp: nil, point: nil)))
        }
    }
    let header = TraceHeader(intendedText: intended.joined(separator: " "))
    var rates: [Double] = []
    for repetition in 0..<3 {
        var source = ArrayTraceSource(events)
        var sink = ObservationBuffer()
        var simulation = KeyboardSimulation(config: KeyboardConfig(), seed: 1, replication: repetition, header: header)
        var summary: ReplicationSummary?
        let elapsed = seconds { summary = try? simulation.run(&source, into: &sink) }
        precondition(summary?.edits == events.count && sink.keys.count == events.count)
        rates.append(Double(events.count) / elapsed)
    }
    return median(rates)
}


// The benchmarks, in the order `make bench` prints them.
report("engine_events_per_s", engineEventsPerSecond(), "events/s")
report("keyboard_keys_per_s", keyboardKeysPerSecond(), "keys/s")
