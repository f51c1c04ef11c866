package main

import (
	"bytes"
	"fmt"
	"strings"
)

// A third of openshift/api's group-versions also carry generated.pb.go,
// the protobuf code go-to-protobuf writes for their types: 1.6 MB of the
// 6.6 MB of Go source in its API packages, with no marker in it, but
// parsed and type-checked by every package load. synthtree writes one, in
// the shape that generator gives it (Marshal, MarshalToSizedBuffer, Size,
// String and a hand-unrolled Unmarshal per struct type, and the varint
// helpers), for every protobufEvery-th group-version. The code compiles
// and is consistent with itself; it is never run.

// protobufEvery selects the group-versions that get generated.pb.go.
const protobufEvery = 3

// protobufMethods are the methods protobufGo declares on a struct type; a
// type with a field of one of these names gets none (a field and a method
// cannot share a name).
var protobufMethods = []string{"Marshal", "MarshalTo", "MarshalToSizedBuffer", "Size", "String", "Unmarshal"}

// protobufGo renders generated.pb.go for the struct types of a package.
func protobufGo(pkgName, pkg string, types []*typeDecl) ([]byte, error) {
	var b bytes.Buffer
	for _, t := range types {
		if t.Fields == nil || clashesWithProtobuf(t) {
			continue
		}
		fields := protoFields(t)
		writeProtoMarshal(&b, t.Name, fields)
		writeProtoSize(&b, t.Name, fields)
		writeProtoString(&b, t.Name, fields)
		writeProtoUnmarshal(&b, t.Name, fields)
	}
	b.WriteString(protobufHelpers)
	imports := map[string]string{"fmt": "fmt", "io": "io", "math/bits": "math_bits", "strings": "strings"}
	return assemble(pkgName, pkg, generatedLead, imports, b.Bytes())
}

// protoField is a field as the protobuf code sees it: its number and
// whether it is a plain string (copied as bytes) or anything else
// (marshalled through its printed form, which keeps the code type-agnostic).
type protoField struct {
	Name   string
	Number int
	String bool
}

func protoFields(t *typeDecl) []protoField {
	var out []protoField
	for _, f := range t.Fields {
		if f.Type.Builtin == "metav1.TypeMeta" {
			continue // go-to-protobuf leaves TypeMeta out
		}
		plain := f.Type.Builtin == "string" && !f.Type.Ptr && !f.Type.Slice && !f.Type.Map
		out = append(out, protoField{Name: f.GoName, Number: len(out) + 1, String: plain})
	}
	return out
}

func clashesWithProtobuf(t *typeDecl) bool {
	for _, f := range t.Fields {
		for _, m := range protobufMethods {
			if f.GoName == m {
				return true
			}
		}
	}
	return false
}

// protoKey is the varint encoding of a length-delimited field's key.
func protoKey(number int) []byte {
	var out []byte
	for k := uint64(number)<<3 | 2; ; k >>= 7 {
		if k < 0x80 {
			return append(out, byte(k))
		}
		out = append(out, byte(k&0x7f|0x80))
	}
}

// value is the expression a field is marshalled from, bound to s.
func (f protoField) value(recv string) string {
	if f.String {
		return recv + "." + f.Name
	}
	return "fmt.Sprint(" + recv + "." + f.Name + ")"
}

func writeProtoMarshal(b *bytes.Buffer, name string, fields []protoField) {
	fmt.Fprintf(b, "func (m *%s) Marshal() (dAtA []byte, err error) {\n\tsize := m.Size()\n\tdAtA = make([]byte, size)\n", name)
	fmt.Fprintf(b, "\tn, err := m.MarshalToSizedBuffer(dAtA[:size])\n\tif err != nil {\n\t\treturn nil, err\n\t}\n\treturn dAtA[:n], nil\n}\n\n")
	fmt.Fprintf(b, "func (m *%s) MarshalTo(dAtA []byte) (int, error) {\n\tsize := m.Size()\n\treturn m.MarshalToSizedBuffer(dAtA[:size])\n}\n\n", name)
	fmt.Fprintf(b, "func (m *%s) MarshalToSizedBuffer(dAtA []byte) (int, error) {\n\ti := len(dAtA)\n\t_ = i\n\tvar l int\n\t_ = l\n", name)
	for i := len(fields) - 1; i >= 0; i-- {
		f := fields[i]
		fmt.Fprintf(b, "\t{\n\t\ts := %s\n\t\ti -= len(s)\n\t\tcopy(dAtA[i:], s)\n\t\ti = encodeVarintGenerated(dAtA, i, uint64(len(s)))\n", f.value("m"))
		key := protoKey(f.Number)
		for j := len(key) - 1; j >= 0; j-- {
			fmt.Fprintf(b, "\t\ti--\n\t\tdAtA[i] = 0x%x\n", key[j])
		}
		b.WriteString("\t}\n")
	}
	b.WriteString("\treturn len(dAtA) - i, nil\n}\n\n")
}

func writeProtoSize(b *bytes.Buffer, name string, fields []protoField) {
	fmt.Fprintf(b, "func (m *%s) Size() (n int) {\n\tif m == nil {\n\t\treturn 0\n\t}\n\tvar l int\n\t_ = l\n", name)
	for _, f := range fields {
		fmt.Fprintf(b, "\tl = len(%s)\n\tn += %d + l + sovGenerated(uint64(l))\n", f.value("m"), len(protoKey(f.Number)))
	}
	b.WriteString("\treturn n\n}\n\n")
}

func writeProtoString(b *bytes.Buffer, name string, fields []protoField) {
	fmt.Fprintf(b, "func (this *%s) String() string {\n\tif this == nil {\n\t\treturn \"nil\"\n\t}\n\ts := strings.Join([]string{`&%s{`,\n", name, name)
	for _, f := range fields {
		fmt.Fprintf(b, "\t\t`%s:` + fmt.Sprintf(\"%%v\", this.%s) + `,`,\n", f.Name, f.Name)
	}
	b.WriteString("\t\t`}`,\n\t}, \"\")\n\treturn s\n}\n\n")
}

// protoVarint is the unrolled varint decoding go-to-protobuf writes at
// every use, into the variable v.
func protoVarint(indent, v string) string {
	r := strings.NewReplacer("\n", "\n"+indent, "V", v)
	return indent + r.Replace("for shift := uint(0); ; shift += 7 {\n\tif shift >= 64 {\n\t\treturn ErrIntOverflowGenerated\n\t}\n\tif iNdEx >= l {\n\t\treturn io.ErrUnexpectedEOF\n\t}\n\tb := dAtA[iNdEx]\n\tiNdEx++\n\tV |= uint64(b&0x7F) << shift\n\tif b < 0x80 {\n\t\tbreak\n\t}\n}") + "\n"
}

func writeProtoUnmarshal(b *bytes.Buffer, name string, fields []protoField) {
	fmt.Fprintf(b, "func (m *%s) Unmarshal(dAtA []byte) error {\n\tl := len(dAtA)\n\tiNdEx := 0\n\tfor iNdEx < l {\n\t\tpreIndex := iNdEx\n\t\tvar wire uint64\n", name)
	b.WriteString(protoVarint("\t\t", "wire"))
	fmt.Fprintf(b, "\t\tfieldNum := int32(wire >> 3)\n\t\twireType := int(wire & 0x7)\n\t\tif wireType == 4 {\n\t\t\treturn fmt.Errorf(\"proto: %s: wiretype end group for non-group\")\n\t\t}\n", name)
	fmt.Fprintf(b, "\t\tif fieldNum <= 0 {\n\t\t\treturn fmt.Errorf(\"proto: %s: illegal tag %%d (wire type %%d)\", fieldNum, wire)\n\t\t}\n\t\tswitch fieldNum {\n", name)
	for _, f := range fields {
		fmt.Fprintf(b, "\t\tcase %d:\n\t\t\tif wireType != 2 {\n\t\t\t\treturn fmt.Errorf(\"proto: wrong wireType = %%d for field %s\", wireType)\n\t\t\t}\n\t\t\tvar byteLen uint64\n", f.Number, f.Name)
		b.WriteString(protoVarint("\t\t\t", "byteLen"))
		b.WriteString("\t\t\tpostIndex := iNdEx + int(byteLen)\n\t\t\tif int(byteLen) < 0 || postIndex < 0 {\n\t\t\t\treturn ErrInvalidLengthGenerated\n\t\t\t}\n\t\t\tif postIndex > l {\n\t\t\t\treturn io.ErrUnexpectedEOF\n\t\t\t}\n")
		if f.String {
			fmt.Fprintf(b, "\t\t\tm.%s = string(dAtA[iNdEx:postIndex])\n", f.Name)
		} else {
			b.WriteString("\t\t\t_ = dAtA[iNdEx:postIndex]\n")
		}
		b.WriteString("\t\t\tiNdEx = postIndex\n")
	}
	b.WriteString("\t\tdefault:\n\t\t\tiNdEx = preIndex\n\t\t\tskippy, err := skipGenerated(dAtA[iNdEx:])\n\t\t\tif err != nil {\n\t\t\t\treturn err\n\t\t\t}\n")
	b.WriteString("\t\t\tif (skippy < 0) || (iNdEx+skippy) < 0 {\n\t\t\t\treturn ErrInvalidLengthGenerated\n\t\t\t}\n\t\t\tif (iNdEx + skippy) > l {\n\t\t\t\treturn io.ErrUnexpectedEOF\n\t\t\t}\n\t\t\tiNdEx += skippy\n\t\t}\n\t}\n")
	b.WriteString("\tif iNdEx > l {\n\t\treturn io.ErrUnexpectedEOF\n\t}\n\treturn nil\n}\n\n")
}

// protobufHelpers are the package-level helpers of a generated.pb.go.
const protobufHelpers = `func encodeVarintGenerated(dAtA []byte, offset int, v uint64) int {
	offset -= sovGenerated(v)
	base := offset
	for v >= 1<<7 {
		dAtA[offset] = uint8(v&0x7f | 0x80)
		v >>= 7
		offset++
	}
	dAtA[offset] = uint8(v)
	return base
}

func sovGenerated(x uint64) (n int) {
	return (math_bits.Len64(x|1) + 6) / 7
}

func skipGenerated(dAtA []byte) (n int, err error) {
	l := len(dAtA)
	iNdEx := 0
	depth := 0
	for iNdEx < l {
		var wire uint64
		for shift := uint(0); ; shift += 7 {
			if shift >= 64 {
				return 0, ErrIntOverflowGenerated
			}
			if iNdEx >= l {
				return 0, io.ErrUnexpectedEOF
			}
			b := dAtA[iNdEx]
			iNdEx++
			wire |= (uint64(b) & 0x7F) << shift
			if b < 0x80 {
				break
			}
		}
		wireType := int(wire & 0x7)
		switch wireType {
		case 0:
			for shift := uint(0); ; shift += 7 {
				if shift >= 64 {
					return 0, ErrIntOverflowGenerated
				}
				if iNdEx >= l {
					return 0, io.ErrUnexpectedEOF
				}
				iNdEx++
				if dAtA[iNdEx-1] < 0x80 {
					break
				}
			}
		case 1:
			iNdEx += 8
		case 2:
			var length int
			for shift := uint(0); ; shift += 7 {
				if shift >= 64 {
					return 0, ErrIntOverflowGenerated
				}
				if iNdEx >= l {
					return 0, io.ErrUnexpectedEOF
				}
				b := dAtA[iNdEx]
				iNdEx++
				length |= (int(b) & 0x7F) << shift
				if b < 0x80 {
					break
				}
			}
			if length < 0 {
				return 0, ErrInvalidLengthGenerated
			}
			iNdEx += length
		case 3:
			depth++
		case 4:
			if depth == 0 {
				return 0, ErrUnexpectedEndOfGroupGenerated
			}
			depth--
		case 5:
			iNdEx += 4
		default:
			return 0, fmt.Errorf("proto: illegal wireType %d", wireType)
		}
		if iNdEx < 0 {
			return 0, ErrInvalidLengthGenerated
		}
		if depth == 0 {
			return iNdEx, nil
		}
	}
	return 0, io.ErrUnexpectedEOF
}

var (
	ErrInvalidLengthGenerated        = fmt.Errorf("proto: negative length found during unmarshaling")
	ErrIntOverflowGenerated          = fmt.Errorf("proto: integer overflow")
	ErrUnexpectedEndOfGroupGenerated = fmt.Errorf("proto: unexpected end of group")
)
`
