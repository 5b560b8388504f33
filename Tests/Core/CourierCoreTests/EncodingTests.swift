import CourierCore
import Testing

/// The shared encoders every module uses: hex, base64url and the constant-time compare.
struct EncodingTests {
    @Test func hexRoundTripsAndRefusesWhatIsNotLowercaseHex() {
        #expect(Hex.encode([0x00, 0x0f, 0xca, 0xfe]) == "000fcafe")
        #expect(Hex.decode("000fcafe") == [0x00, 0x0f, 0xca, 0xfe])
        #expect(Hex.decode("") == [])
        for bad in ["abc", "zz", "CAFE", "ca fe"] { #expect(Hex.decode(bad) == nil, "\(bad)") }
    }

    @Test func base64URLHasNoPaddingAndRefusesStandardSymbols() {
        #expect(Base64.encodeURL([0xfb, 0xff]) == "-_8")
        #expect(Base64.decodeURL("-_8") == [0xfb, 0xff])
        #expect(Base64.decodeURL("+/8=") == nil)
    }

    @Test func constantTimeEqualsComparesLengthAndBytes() {
        #expect(ConstantTime.equals([1, 2, 3], [1, 2, 3]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2, 4]))
        #expect(!ConstantTime.equals([1, 2], [1, 2, 0]))
        #expect(ConstantTime.equals("token", "token"))
    }
}
