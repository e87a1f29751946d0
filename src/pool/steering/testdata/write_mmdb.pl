#!/usr/bin/perl
# Writes a MaxMind DB for tests with MaxMind's own writer (Debian: libmaxmind-db-writer-perl),
# so the reader is tested against the format as MaxMind writes it, IPv4 aliases included.
#
# Usage: write_mmdb.pl OUT.mmdb [ipv4-only] < networks
# Each input line: PREFIX COUNTRY [CONTINENT [ASN]] (for example "192.0.2.0/24 DE EU 64500");
# a record holds country.iso_code, continent.code and, when given,
# autonomous_system_number as GeoIP2 and GeoLite2 databases do. `-` leaves a field out.
use strict;
use warnings;
use MaxMind::DB::Writer::Tree;

my ($out, $mode) = @ARGV;
die "usage: write_mmdb.pl OUT.mmdb [ipv4-only] < networks\n" unless defined $out;
my $v4_only = defined $mode && $mode eq 'ipv4-only';

my %types = (
    country                  => 'map',
    continent                => 'map',
    iso_code                 => 'utf8_string',
    code                     => 'utf8_string',
    autonomous_system_number => 'uint32',
);
my $tree = MaxMind::DB::Writer::Tree->new(
    ip_version               => $v4_only ? 4 : 6,
    record_size              => 28,
    database_type            => 'cutover-test',
    languages                => ['en'],
    description              => { en => 'cutover steering test networks' },
    # Tests use loopback and documentation prefixes, which the writer drops by default.
    remove_reserved_networks => 0,
    # As MaxMind's own databases: ::ffff:0:0/96 and 2002::/16 lead to the IPv4 tree.
    alias_ipv6_to_ipv4       => $v4_only ? 0 : 1,
    map_key_type_callback    => sub { $types{ $_[0] } },
);
while (my $line = <STDIN>) {
    $line =~ s/#.*//;
    my @fields = split ' ', $line;  # an array: a list of scalars would keep a trailing empty field
    my ($prefix, $country, $continent, $asn) = @fields;
    next unless defined $prefix;
    my %record;
    $record{country} = { iso_code => $country } if defined $country && $country ne '-';
    $record{continent} = { code => $continent } if defined $continent && $continent ne '-';
    $record{autonomous_system_number} = $asn if defined $asn && $asn ne '-';
    $tree->insert_network($prefix, \%record);
}
open my $fh, '>:raw', $out or die "write_mmdb.pl: cannot write $out: $!\n";
$tree->write_tree($fh);
close $fh or die "write_mmdb.pl: cannot write $out: $!\n";
