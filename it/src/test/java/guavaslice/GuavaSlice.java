package guavaslice;

import com.google.common.base.CharMatcher;
import com.google.common.base.Joiner;
import com.google.common.base.Optional;
import com.google.common.base.Preconditions;
import com.google.common.base.Splitter;
import com.google.common.base.Strings;
import com.google.common.collect.ArrayListMultimap;
import com.google.common.collect.HashMultiset;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSortedSet;
import com.google.common.collect.Iterables;
import com.google.common.collect.Lists;
import com.google.common.collect.Multimap;
import com.google.common.collect.Multiset;
import com.google.common.collect.Ordering;
import com.google.common.collect.Range;
import com.google.common.collect.TreeRangeSet;
import com.google.common.hash.Hashing;
import com.google.common.math.BigIntegerMath;
import com.google.common.math.IntMath;
import com.google.common.math.LongMath;
import com.google.common.primitives.Ints;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A deterministic slice of Guava (collections, strings, hashing, math, ranges, a failing
 * precondition) for the DEX scale test: it runs against Guava converted back from instrumented
 * DEX and must print exactly what it prints against the original jar. Compiled against the
 * Guava API that both versions share.
 */
public final class GuavaSlice {
    private GuavaSlice() {}

    public static void main(String[] args) {
        for (int round = 0; round < 3; round++) {
            ImmutableList<Integer> nums = ImmutableList.copyOf(Ints.asList(5, 3, 9, 1, 7, 3, 8));
            System.out.println("sorted " + Ordering.natural().sortedCopy(nums) + " max " + Ordering.natural().max(nums));
            System.out.println("partition " + Lists.partition(Lists.newArrayList(nums), 3));
            System.out.println("set " + ImmutableSortedSet.copyOf(nums) + " first " + Iterables.getFirst(nums, -1));
            Multimap<String, Integer> byParity = ArrayListMultimap.create();
            for (int n : nums) byParity.put(n % 2 == 0 ? "even" : "odd", n);
            System.out.println("multimap " + byParity.get("odd") + " " + byParity.get("even"));
            Multiset<Integer> counts = HashMultiset.create(nums);
            System.out.println("count3 " + counts.count(3) + " distinct " + counts.elementSet().size());
            ImmutableMap<String, Integer> m = ImmutableMap.of("a", 1, "b", 2, "c", 3);
            System.out.println("map " + Joiner.on(',').withKeyValueSeparator('=').join(m));
            List<String> parts = Splitter.on(',').trimResults().omitEmptyStrings().splitToList(" x, y,,z ,");
            System.out.println("split " + parts + " joined " + Joiner.on('|').skipNulls().join(parts));
            System.out.println("pad " + Strings.padStart("7", 3, '0') + " " + Strings.repeat("ab", 3)
                    + " digits " + CharMatcher.inRange('0', '9').retainFrom("a1b2c3"));
            System.out.println("sha256 " + Hashing.sha256().hashString("hyprof", StandardCharsets.UTF_8));
            System.out.println("murmur " + Hashing.murmur3_32().hashInt(round + 42));
            System.out.println("crc32 " + Hashing.crc32().hashBytes(new byte[] {1, 2, 3}));
            System.out.println("math " + IntMath.gcd(84, 36) + " " + LongMath.pow(3, 13) + " "
                    + BigIntegerMath.log10(BigInteger.TEN.pow(30).add(BigInteger.ONE), RoundingMode.FLOOR)
                    + " " + IntMath.sqrt(1000, RoundingMode.CEILING));
            TreeRangeSet<Integer> ranges = TreeRangeSet.create();
            ranges.add(Range.closed(1, 5));
            ranges.add(Range.closedOpen(4, 10));
            ranges.remove(Range.open(6, 7));
            System.out.println("ranges " + ranges + " contains6 " + ranges.contains(6));
            System.out.println("optional " + Optional.fromNullable(null).or("none"));
            try {
                Preconditions.checkArgument(round < 0, "round %s is not negative", round);
            } catch (IllegalArgumentException e) {
                System.out.println("caught " + e.getMessage());
            }
        }
    }
}
