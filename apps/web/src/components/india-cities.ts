/**
 * India's major cities, drawn on a map when no tile server answers: the state capitals and the
 * largest cities, by name in both languages, where they are. `major` marks the eight largest,
 * labelled at every zoom; the others are labelled from zoom 6. A name goes under its city, or to
 * `side` of it where a near major city's name would run into it at the widest zoom.
 */
export type IndiaCity = {
  en: string;
  hi: string;
  lat: number;
  long: number;
  major?: true;
  side?: 'left' | 'right';
};

export const INDIA_CITIES: readonly IndiaCity[] = [
  { en: 'New Delhi', hi: 'नई दिल्ली', lat: 28.6139, long: 77.209, major: true },
  { en: 'Mumbai', hi: 'मुंबई', lat: 19.076, long: 72.8777, major: true },
  { en: 'Kolkata', hi: 'कोलकाता', lat: 22.5726, long: 88.3639, major: true },
  { en: 'Chennai', hi: 'चेन्नई', lat: 13.0827, long: 80.2707, major: true, side: 'right' },
  { en: 'Bengaluru', hi: 'बेंगलुरु', lat: 12.9716, long: 77.5946, major: true, side: 'left' },
  { en: 'Hyderabad', hi: 'हैदराबाद', lat: 17.385, long: 78.4867, major: true },
  { en: 'Ahmedabad', hi: 'अहमदाबाद', lat: 23.0225, long: 72.5714, major: true },
  { en: 'Pune', hi: 'पुणे', lat: 18.5204, long: 73.8567, major: true, side: 'right' },
  { en: 'Jaipur', hi: 'जयपुर', lat: 26.9124, long: 75.7873 },
  { en: 'Lucknow', hi: 'लखनऊ', lat: 26.8467, long: 80.9462 },
  { en: 'Surat', hi: 'सूरत', lat: 21.1702, long: 72.8311 },
  { en: 'Nagpur', hi: 'नागपुर', lat: 21.1458, long: 79.0882 },
  { en: 'Indore', hi: 'इंदौर', lat: 22.7196, long: 75.8577 },
  { en: 'Bhopal', hi: 'भोपाल', lat: 23.2599, long: 77.4126 },
  { en: 'Patna', hi: 'पटना', lat: 25.5941, long: 85.1376 },
  { en: 'Varanasi', hi: 'वाराणसी', lat: 25.3176, long: 82.9739 },
  { en: 'Chandigarh', hi: 'चंडीगढ़', lat: 30.7333, long: 76.7794 },
  { en: 'Shimla', hi: 'शिमला', lat: 31.1048, long: 77.1734 },
  { en: 'Dehradun', hi: 'देहरादून', lat: 30.3165, long: 78.0322 },
  { en: 'Srinagar', hi: 'श्रीनगर', lat: 34.0837, long: 74.7973 },
  { en: 'Leh', hi: 'लेह', lat: 34.1526, long: 77.5771 },
  { en: 'Raipur', hi: 'रायपुर', lat: 21.2514, long: 81.6296 },
  { en: 'Ranchi', hi: 'राँची', lat: 23.3441, long: 85.3096 },
  { en: 'Bhubaneswar', hi: 'भुवनेश्वर', lat: 20.2961, long: 85.8245 },
  { en: 'Visakhapatnam', hi: 'विशाखापत्तनम', lat: 17.6868, long: 83.2185 },
  { en: 'Amaravati', hi: 'अमरावती', lat: 16.5062, long: 80.648 },
  { en: 'Panaji', hi: 'पणजी', lat: 15.4909, long: 73.8278 },
  { en: 'Thiruvananthapuram', hi: 'तिरुवनंतपुरम', lat: 8.5241, long: 76.9366 },
  { en: 'Kochi', hi: 'कोच्चि', lat: 9.9312, long: 76.2673 },
  { en: 'Coimbatore', hi: 'कोयंबटूर', lat: 11.0168, long: 76.9558 },
  { en: 'Guwahati', hi: 'गुवाहाटी', lat: 26.1445, long: 91.7362 },
  { en: 'Shillong', hi: 'शिलांग', lat: 25.5788, long: 91.8933 },
  { en: 'Imphal', hi: 'इंफाल', lat: 24.817, long: 93.9368 },
  { en: 'Agartala', hi: 'अगरतला', lat: 23.8315, long: 91.2868 },
  { en: 'Gangtok', hi: 'गंगटोक', lat: 27.3389, long: 88.6065 },
  { en: 'Port Blair', hi: 'पोर्ट ब्लेयर', lat: 11.6234, long: 92.7265 },
];
