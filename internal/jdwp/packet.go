// Package jdwp speaks the Java Debug Wire Protocol, the protocol the JVM's
// own debug agent (-agentlib:jdwp) serves: the handshake, command and reply
// packets, the identifier sizes a VM announces, typed commands of the
// command sets a debugger needs, and composite event packets. It knows
// nothing about DAP.
package jdwp

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// headerSize is the length of a packet header: length, id, flags and
// either a command set and command or an error code.
const headerSize = 11

// flagReply marks a reply packet.
const flagReply = 0x80

// MaxPacketSize bounds one packet. Replies carry class lists and array
// regions; 64 MiB is far above what a debugger asks for and keeps a corrupt
// length from allocating the machine away.
const MaxPacketSize = 64 << 20

// ErrMalformed reports bytes that are not a JDWP packet.
var ErrMalformed = errors.New("jdwp: malformed packet")

// Packet is one command or reply packet.
type Packet struct {
	ID    uint32
	Reply bool
	// CommandSet and Command name a command packet.
	CommandSet byte
	Command    byte
	// ErrorCode is a reply's error (0: success).
	ErrorCode uint16
	Data      []byte
}

// Encode lays the packet out on the wire.
func (p Packet) Encode() []byte {
	b := make([]byte, headerSize+len(p.Data))
	binary.BigEndian.PutUint32(b[0:], uint32(len(b)))
	binary.BigEndian.PutUint32(b[4:], p.ID)
	if p.Reply {
		b[8] = flagReply
		binary.BigEndian.PutUint16(b[9:], p.ErrorCode)
	} else {
		b[9], b[10] = p.CommandSet, p.Command
	}
	copy(b[headerSize:], p.Data)
	return b
}

// PacketLength reads the total length from the first four bytes of a
// packet and checks that it is plausible.
func PacketLength(header []byte) (int, error) {
	if len(header) < 4 {
		return 0, fmt.Errorf("%w: %d header bytes", ErrMalformed, len(header))
	}
	n := binary.BigEndian.Uint32(header)
	if n < headerSize || n > MaxPacketSize {
		return 0, fmt.Errorf("%w: length %d", ErrMalformed, n)
	}
	return int(n), nil
}

// DecodePacket parses one whole packet; b must hold exactly its bytes.
func DecodePacket(b []byte) (Packet, error) {
	n, err := PacketLength(b)
	if err != nil {
		return Packet{}, err
	}
	if n != len(b) {
		return Packet{}, fmt.Errorf("%w: length %d but %d bytes", ErrMalformed, n, len(b))
	}
	p := Packet{ID: binary.BigEndian.Uint32(b[4:]), Data: b[headerSize:]}
	switch flags := b[8]; flags {
	case flagReply:
		p.Reply = true
		p.ErrorCode = binary.BigEndian.Uint16(b[9:])
	case 0:
		p.CommandSet, p.Command = b[9], b[10]
	default:
		return Packet{}, fmt.Errorf("%w: flags %#x", ErrMalformed, flags)
	}
	return p, nil
}
