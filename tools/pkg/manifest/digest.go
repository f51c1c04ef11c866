package manifest

import (
	"hash/maphash"
	"math"
	"math/bits"
	"reflect"
	"unsafe"
)

// digest identifies a value by its content: 128 bits, two 64-bit hashes
// with independent seeds, so that two different subtrees of a run never
// share one by accident.
type digest [2]uint64

// nodeDigest is a mapping's digest and the estimated size of its text.
type nodeDigest struct {
	digest digest
	size   int
}

// mapID identifies a map by its address: the same map may hold a place
// in several documents, and in several places of one.
type mapID unsafe.Pointer

func idOf(m map[string]any) mapID { return mapID(reflect.ValueOf(m).UnsafePointer()) }

var digestSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// digestsOf returns the digest of every mapping in v whose content is
// made of the values jsonLike returns (maps, slices, strings, numbers,
// booleans and nil); a mapping holding anything else has none.
func digestsOf(v map[string]any) map[mapID]nodeDigest {
	d := map[mapID]nodeDigest{}
	digestValue(v, d)
	return d
}

// Type tags, so that values of different types never share a digest.
const (
	tagNil uint64 = iota + 1
	tagFalse
	tagTrue
	tagString
	tagInt
	tagFloat
	tagMap
	tagSlice
)

// digestValue returns v's digest and its estimated text size, and false
// for content digestsOf does not cover.
func digestValue(v any, memo map[mapID]nodeDigest) (digest, int, bool) {
	switch x := v.(type) {
	case nil:
		return scalarDigest(tagNil, 0), 4, true
	case bool:
		if x {
			return scalarDigest(tagTrue, 0), 4, true
		}
		return scalarDigest(tagFalse, 0), 5, true
	case string:
		return stringDigest(tagString, x), len(x) + 2, true
	case int:
		return scalarDigest(tagInt, uint64(x)), 8, true
	case float64:
		return scalarDigest(tagFloat, math.Float64bits(x)), 8, true
	case map[string]any:
		return digestMap(x, memo)
	case []any:
		acc := digest{tagSlice, tagSlice}
		size := 0
		for _, e := range x {
			d, n, ok := digestValue(e, memo)
			if !ok {
				return digest{}, 0, false
			}
			acc = digest{mix(acc[0], d[0]), mix(acc[1], d[1])}
			size += n + 2
		}
		return digest{mix(acc[0], uint64(len(x))), mix(acc[1], uint64(len(x)))}, size, true
	}
	return digest{}, 0, false
}

// digestMap sums its entries' digests, each of the key and the value
// together, so that the order Go iterates the map in does not matter.
func digestMap(m map[string]any, memo map[mapID]nodeDigest) (digest, int, bool) {
	if m == nil {
		return scalarDigest(tagNil, 0), 4, true
	}
	id := idOf(m)
	if nd, ok := memo[id]; ok {
		return nd.digest, nd.size, true
	}
	var sum digest
	size := 0
	for k, e := range m {
		d, n, ok := digestValue(e, memo)
		if !ok {
			return digest{}, 0, false
		}
		kd := stringDigest(tagMap, k)
		sum[0] += mix(kd[0], d[0])
		sum[1] += mix(kd[1], d[1])
		size += len(k) + n + 2
	}
	out := digest{mix(sum[0], tagMap^uint64(len(m))<<8), mix(sum[1], tagMap^uint64(len(m))<<8)}
	memo[id] = nodeDigest{out, size}
	return out, size, true
}

func stringDigest(tag uint64, s string) digest {
	return digest{
		mix(tag, maphash.String(digestSeeds[0], s)),
		mix(tag, maphash.String(digestSeeds[1], s)),
	}
}

func scalarDigest(tag, x uint64) digest {
	return digest{mix(tag, x), mix(tag^0x9e3779b97f4a7c15, x)}
}

// mix combines two 64-bit values into one, order-dependently: for either
// input fixed it is a bijection of the other (an odd multiplier, a
// rotation and an addition, then murmur3's finaliser, all bijections).
func mix(a, b uint64) uint64 {
	x := bits.RotateLeft64(a*0x9e3779b97f4a7c15, 31) + b
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}
