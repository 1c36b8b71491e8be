// cu001_suppressions.cu: suppression comments, and CU001 for begin and end markers that do not pair up.

__device__ float suppressed(float x)
{
    float r = x * 0.1; // NOLINT(CU201)
    // NOLINTNEXTLINE(double-literal)
    r = r * 0.3;
    // NOLINTBEGIN(CU2*)
    r = r * 0.7;
    // NOLINTEND(CU2*)
    r = r * 0.9;   // expect: CU201 "0.9 is not exact in float"
    return r;
}

__device__ float unmatched(float x)
{
    // NOLINTEND(CU201)   // expect: CU001 "END without a matching"
    float r = x * 0.1; // expect: CU201 "0.1 is not exact in float"
    // NOLINTBEGIN(CU301) // expect: CU001 "BEGIN without a matching"
    return r;
}
