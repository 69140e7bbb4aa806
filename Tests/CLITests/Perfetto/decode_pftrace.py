#!/usr/bin/env python3
"""Decodes a keysim .pftrace with Perfetto's official generated module and checks it as
Perfetto's trace processor reads track events; prints a JSON summary for the Swift test
(Tests/CLITests/PerfettoTraceTests.swift) to assert against the report's rows.

    python3 decode_pftrace.py TRACE.pftrace [--events PREFIX] > summary.json

With --events, the summary also lists every slice and instant (time, end, name, args) of the
tracks whose name starts with PREFIX, in the order they begin.

Exit status 0 with the summary on standard output; 1 with every problem found on standard
error; 2 when the `perfetto` package (pip install perfetto) is missing.

Checks:
- the file parses as `perfetto.protos.Trace` and every packet re-serialises to exactly its
  bytes (no unknown fields, every field with the wire type the schema declares: Perfetto's
  own decoder reads repeated fields only as declared);
- one packet sequence: the first packet clears incremental state, every track event says it
  needs it, every interned id (names, categories, annotation names) is defined before use;
- timestamps never go backwards, so no reordering is needed;
- every event's track was described before; counters only on counter tracks;
- on each track, slice ends close the innermost open slice and every slice is closed;
- every flow id runs through events in time order and is terminated exactly once, last.
"""
import json
import sys

try:
    from perfetto.protos.perfetto.trace import perfetto_trace_pb2 as pb
except ImportError as error:  # pragma: no cover - reported to the test
    sys.stderr.write("decode_pftrace.py: the perfetto Python package is missing (%s); "
                     "install it with: python3 -m pip install perfetto\n" % error)
    sys.exit(2)

TrackEvent = pb.TrackEvent
SEQ_CLEARED = pb.TracePacket.SEQ_INCREMENTAL_STATE_CLEARED
SEQ_NEEDS = pb.TracePacket.SEQ_NEEDS_INCREMENTAL_STATE


def packet_bytes(data):
    """Yields the raw bytes of each `Trace.packet` field (field 1, length-delimited)."""
    offset = 0
    while offset < len(data):
        if data[offset] != 0x0A:
            raise ValueError("byte %d: not a Trace.packet field" % offset)
        offset += 1
        length, shift = 0, 0
        while True:
            byte = data[offset]
            offset += 1
            length |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                break
        yield data[offset:offset + length]
        offset += length


def annotation_value(annotation):
    kind = annotation.WhichOneof("value")
    return getattr(annotation, kind) if kind else None


def main(path, events_prefix=None):
    data = open(path, "rb").read()
    trace = pb.Trace()
    trace.ParseFromString(data)
    problems = []
    raw = list(packet_bytes(data))
    if len(raw) != len(trace.packet):
        problems.append("%d packet fields, %d packets decoded" % (len(raw), len(trace.packet)))
    for index, (packet, original) in enumerate(zip(trace.packet, raw)):
        if packet.SerializeToString() != original:
            problems.append("packet %d does not re-serialise to its bytes" % index)

    names, categories, annotation_names = {}, {}, {}
    tracks = {}          # uuid -> summary
    stacks = {}          # uuid -> open slices
    flows = {}           # flow id -> steps
    listed = []          # events of the tracks --events names
    terminated = set()
    sequence = None
    last_ts = 0
    for index, packet in enumerate(trace.packet):
        where = "packet %d" % index
        if not packet.HasField("trusted_packet_sequence_id"):
            problems.append(where + ": no trusted_packet_sequence_id")
        if sequence is None:
            sequence = packet.trusted_packet_sequence_id
            if not packet.sequence_flags & SEQ_CLEARED:
                problems.append(where + ": the first packet does not clear incremental state")
        elif packet.trusted_packet_sequence_id != sequence:
            problems.append(where + ": another packet sequence")
        for table, entries in ((categories, packet.interned_data.event_categories),
                               (names, packet.interned_data.event_names),
                               (annotation_names, packet.interned_data.debug_annotation_names)):
            for entry in entries:
                if entry.iid in table and table[entry.iid] != entry.name:
                    problems.append(where + ": iid %d redefined" % entry.iid)
                table[entry.iid] = entry.name
        if packet.HasField("track_descriptor"):
            descriptor = packet.track_descriptor
            if descriptor.uuid in tracks:
                problems.append(where + ": track %d described twice" % descriptor.uuid)
            kind = ("process" if descriptor.HasField("process") else "thread" if descriptor.HasField("thread")
                    else "counter" if descriptor.HasField("counter") else "async")
            name = (descriptor.process.process_name if kind == "process" else
                    descriptor.thread.thread_name if kind == "thread" else descriptor.name)
            if descriptor.parent_uuid and descriptor.parent_uuid not in tracks:
                problems.append(where + ": parent of track %d not described before" % descriptor.uuid)
            tracks[descriptor.uuid] = {"uuid": descriptor.uuid, "name": name, "kind": kind,
                                       "parent": descriptor.parent_uuid, "rank": descriptor.sibling_order_rank,
                                       "unit": descriptor.counter.unit_name if kind == "counter" else None,
                                       "labels": list(descriptor.process.process_labels),
                                       "slices": 0, "instants": 0, "counter_values": []}
            stacks[descriptor.uuid] = []
            continue
        if not packet.HasField("track_event"):
            problems.append(where + ": neither a track descriptor nor a track event")
            continue
        event = packet.track_event
        if not packet.sequence_flags & SEQ_NEEDS:
            problems.append(where + ": a track event that does not say it needs incremental state")
        if packet.timestamp < last_ts:
            problems.append(where + ": time goes backwards")
        last_ts = packet.timestamp
        track = tracks.get(event.track_uuid)
        if track is None:
            problems.append(where + ": track %d not described before" % event.track_uuid)
            continue
        if event.HasField("name"):
            problems.append(where + ": a name not interned")
        for iid in event.category_iids:
            if iid not in categories:
                problems.append(where + ": category iid %d not defined" % iid)
        if event.HasField("name_iid") and event.name_iid not in names:
            problems.append(where + ": name iid %d not defined" % event.name_iid)
        args = {}
        for annotation in event.debug_annotations:
            if annotation.name_iid not in annotation_names:
                problems.append(where + ": annotation name iid %d not defined" % annotation.name_iid)
            args[annotation_names.get(annotation.name_iid, "?")] = annotation_value(annotation)
        if (event.type == TrackEvent.TYPE_COUNTER) != (track["kind"] == "counter"):
            problems.append(where + ": counter events belong on counter tracks, and only they")
        if event.type == TrackEvent.TYPE_COUNTER:
            value = event.double_counter_value if event.HasField("double_counter_value") else event.counter_value
            track["counter_values"].append([packet.timestamp, value])
            continue
        if event.type == TrackEvent.TYPE_SLICE_END:
            if not stacks[event.track_uuid]:
                problems.append(where + ": a slice end on track %s with no open slice" % track["name"])
            else:
                stacks[event.track_uuid].pop()["end"] = packet.timestamp
            continue
        if event.type not in (TrackEvent.TYPE_SLICE_BEGIN, TrackEvent.TYPE_INSTANT):
            problems.append(where + ": unexpected event type %d" % event.type)
            continue
        record = {"track": track["name"], "ts": packet.timestamp, "name": names.get(event.name_iid),
                  "category": [categories.get(iid) for iid in event.category_iids], "args": args,
                  "instant": event.type == TrackEvent.TYPE_INSTANT}
        if events_prefix is not None and track["name"].startswith(events_prefix):
            listed.append(record)
        if event.type == TrackEvent.TYPE_SLICE_BEGIN:
            track["slices"] += 1
            stacks[event.track_uuid].append(record)
        else:
            track["instants"] += 1
        for flow_id in event.terminating_flow_ids:
            if flow_id in event.flow_ids:
                problems.append(where + ": flow %d both continued and terminated" % flow_id)
        for flow_id in list(event.flow_ids) + list(event.terminating_flow_ids):
            if flow_id in terminated:
                problems.append(where + ": flow %d used after it terminated" % flow_id)
            flows.setdefault(flow_id, []).append(record)
        terminated.update(event.terminating_flow_ids)
    for uuid, stack in stacks.items():
        if stack:
            problems.append("track %s ends with %d open slice(s)" % (tracks[uuid]["name"], len(stack)))
    for flow_id, steps in flows.items():
        if flow_id not in terminated:
            problems.append("flow %d never terminates" % flow_id)
        if len(steps) < 2:
            problems.append("flow %d has %d step(s)" % (flow_id, len(steps)))
    if problems:
        sys.stderr.write("\n".join(problems[:50]) + "\n")
        return 1
    summary = {
        "packets": len(trace.packet),
        "interned": {"names": len(names), "categories": len(categories), "annotation_names": len(annotation_names)},
        "tracks": sorted(tracks.values(), key=lambda track: track["uuid"]),
        "flows": [{"id": flow_id, "steps": steps} for flow_id, steps in sorted(flows.items())],
    }
    if events_prefix is not None:
        summary["events"] = listed
    json.dump(summary, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    if len(sys.argv) not in (2, 4) or (len(sys.argv) == 4 and sys.argv[2] != "--events"):
        sys.stderr.write("usage: decode_pftrace.py TRACE.pftrace [--events PREFIX]\n")
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[3] if len(sys.argv) == 4 else None))
